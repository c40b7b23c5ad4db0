// denseInSymbols counts a line's code punctuation with its links put as the word "link" in one
// walk, where the sentence pass used a replace by pattern and a count: the answers must be the
// same on any line (links nested, unclosed, split by a newline, `![[embeds]]`, `[text](url)`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { denseInSymbols } from '../../src/core/prose-code';

const SYMBOLS = new Uint8Array(128);
for (const ch of '{}()[];=<>$#|\\_`*/') SYMBOLS[ch.charCodeAt(0)] = 1;

/** The replace and count it stands for. */
function byPattern(line: string, minLength: number, share: number): boolean {
  const text = line.includes('[') ? line.replace(/!?\[\[[^\]\n]*\]\]|\[[^\]\n]*\]\([^)\n]*\)/g, 'link') : line;
  if (text.length < minLength) return false;
  let sym = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) sym += SYMBOLS[c] as number;
  }
  return sym / text.length > share;
}

const piece = fc.constantFrom('[', ']', '[[', ']]', '![[', '(', ')', '](', '!', '\n', 'a', 'note', ' ', '=', '{', '}', '_', '/', '`', '😀', 'é', '[[a/b]]', '[t](u)');
const line = fc.array(piece, { maxLength: 40 }).map((xs) => xs.join(''));

describe('denseInSymbols', () => {
  it('answers as the replace and count it stands for', () => {
    fc.assert(
      fc.property(line, fc.integer({ min: 0, max: 12 }), fc.constantFrom(0, 0.05, 0.15, 0.3, 0.6), (l, min, share) => {
        expect(denseInSymbols(l, SYMBOLS, min, share)).toBe(byPattern(l, min, share));
      }),
      { numRuns: 4000 },
    );
  });

  it('reads links as prose and code as code', () => {
    expect(denseInSymbols('See [[garden/plan]] and [the doc](https://x.y/z_a) for the notes.', SYMBOLS, 8, 0.15)).toBe(false);
    expect(denseInSymbols('const x = { a: [1, 2], b: f(y) };', SYMBOLS, 8, 0.15)).toBe(true);
  });
});
