// containedIn answers `block.includes(text)` with a hashed look at the text's opening first: it
// must give includes' answer for every text, in the block or not, short or long.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containedIn } from '../../src/core/substring-probe';

const piece = fc.constantFrom('a', 'b', 'ab', ' ', '\n', '- ', 'User: ', 'é', '会议', '😀', '\ud83d', 'the note', '[[x/y]]', '.');
const textOf = (max: number) => fc.array(piece, { maxLength: max }).map((xs) => xs.join(''));

describe('containedIn', () => {
  it('answers as includes for texts taken from the block and others', () => {
    fc.assert(
      fc.property(textOf(200), fc.array(fc.tuple(fc.nat(), fc.nat(60))), fc.array(textOf(30)), (block, cuts, others) => {
        const inBlock = containedIn(block);
        const taken = cuts.map(([at, n]) => block.slice(at % (block.length + 1), (at % (block.length + 1)) + n));
        for (const t of [...taken, ...others, '', block, `${block}x`]) expect(inBlock(t)).toBe(block.includes(t));
      }),
      { numRuns: 500 },
    );
  });

  it('finds the lines of a long block and misses the rest', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `- User: fact number ${i} about the garden plan and its ${i * 7} entries.`);
    const block = lines.slice(0, 150).join('\n');
    const inBlock = containedIn(block);
    expect(lines.filter(inBlock)).toEqual(lines.slice(0, 150));
  });
});
