import { describe, expect, it } from 'vitest';
import { BlockDraft } from '../../src/core/block-draft';
import type { SourcedLine } from '../../src/core/record';
import { type FirstPass, KeyFacts, factPool, pastFresh, saidAboveTest } from '../../src/core/render-facts';
import { FactLayout } from '../../src/core/thread-format';
import { blank, line, words } from './render-records';

const layout = new FactLayout({ threads: [], kind: 'assist', roleOf: () => 'user' });
const fact = (text: string, seq: number, over: Partial<SourcedLine> = {}): SourcedLine => line(text, { sources: [`m${seq}`], seq, ...over });
const facts = (n: number, round = 1) => Array.from({ length: n }, (_, i) => fact(`Fact number ${i} says four.`, i, { round }));
const none: FirstPass = { fresh: [], freshRoom: 0, spread: [], spreadShare: 0.6, round: 1 };
const keyFacts = (target: number, saidAbove: (lower: string) => boolean = () => false) => {
  const draft = new BlockDraft(target, words, new Set());
  return { draft, kf: new KeyFacts(draft, layout, false, saidAbove) };
};

describe('key facts section', () => {
  it('between two people, never takes a sentence again inside a longer fact of its message', () => {
    const joined = fact('Last weekend I went to a jazz festival in Oslo. So many bands played that the whole harbour was buzzing.', 1, { sources: ['m1'] });
    const alone = fact('Last weekend I went to a jazz festival in Oslo.', 2, { sources: ['m1'] });
    const other = fact('My sister moved to Bergen in May.', 3, { sources: ['m2'] });
    const take = (kind: 'talk' | 'assist') => {
      const draft = new BlockDraft(200, words, new Set());
      const kf = new KeyFacts(draft, new FactLayout({ threads: [], kind, roleOf: () => 'user' }), false, () => false);
      kf.takeRanked([joined, alone, other], none);
      return kf.facts.map((f) => f.seq);
    };
    expect(take('talk')).toEqual([1, 3]);
    // (With an assistant the pool's facts are taken as before.)
    expect(take('assist')).toEqual([1, 2, 3]);
  });

  it('shows an answer’s list heads only under threads', () => {
    const record = blank({ facts: [fact('Soup; Curry', 1, { listed: true }), fact('I cook on Sundays.', 2)] });
    expect(factPool(record, false).map((f) => f.text)).toEqual(['I cook on Sundays.']);
    expect(factPool(record, true)).toHaveLength(2);
  });

  it("between two people, takes a session's best fact before another session's second when they rank close", () => {
    const ranked = [
      fact('Tim went to a castle in the UK.', 1, { score: 3, thread: 1 }),
      fact('Tim loved the castle gardens most.', 2, { score: 2, thread: 1 }),
      fact('John had his wedding last week.', 3, { score: 1.8, thread: 2 }),
      fact('Tim bought a castle guidebook there.', 4, { score: 1.7, thread: 1 }),
    ];
    const order = (kind: 'talk' | 'assist') => factPool(blank({ kind, facts: ranked }), true).map((f) => f.seq);
    expect(order('talk')).toEqual([1, 3, 2, 4]);
    // With an assistant (and in one thread, laid out as one list) the ranking stands.
    expect(order('assist')).toEqual([1, 2, 3, 4]);
    expect(factPool(blank({ kind: 'talk', facts: ranked }), false).map((f) => f.seq)).toEqual([1, 2, 3, 4]);
  });

  it('leaves out a fact the task lines, the cause or a fix already say', () => {
    const record = blank({
      errors: [{ ...line('TypeError: x is undefined'), resolution: 'Guarded the call with a null check.' }],
      state: { cause: line('The parser drops the last line of every file it reads.') } as never,
    });
    const said = saidAboveTest(record, { goalLower: 'goal: fix the parser', nextStepText: '', leftOffText: 'left off: run the whole test suite again' });
    expect(said('fix the parser')).toBe(true);
    expect(said('guarded the call with a null check.')).toBe(true);
    expect(said('so the parser drops the last line of every file it reads.')).toBe(true);
    expect(said('run the whole test suite again')).toBe(true);
    expect(said('the cat sleeps on the keyboard')).toBe(false);
  });

  it('takes facts in rank order while they fit, laid out in one list under its heading', () => {
    // Each fact line: "- User: Fact number i says four." is 7 words + a newline; the heading 3.
    const { draft, kf } = keyFacts(30);
    kf.takeRanked(facts(5), none);
    expect(kf.facts).toHaveLength(3);
    expect(kf.lines[0]).toContain('Fact number 0');
    expect(draft.used).toBeLessThanOrEqual(30);
    expect(draft.used).toBe(words(kf.lines.join('\n')) + kf.lines.length + 3);
  });

  it('never shows what a section showed, nor what the lines above say', () => {
    const { draft, kf } = keyFacts(100, (lower) => lower.includes('number 1'));
    const pool = facts(3);
    draft.shown.add(kf.keyOf(pool[0]!));
    kf.takeRanked(pool, none);
    expect(kf.facts.map((f) => f.seq)).toEqual([2]);
  });

  it('holds this round’s facts to their share in whole facts on the first pass', () => {
    const first: FirstPass = { fresh: [], freshRoom: 10, spread: [], spreadShare: 0.6, round: 2 };
    const fresh = fact('x', 1, { round: 2 });
    const withFresh = { ...first, fresh: [fresh] };
    // Inside the share, a fact is taken whole even past it, by no more than the share again.
    expect(pastFresh(withFresh, 0, fresh, 5, 12)).toBe(false);
    expect(pastFresh(withFresh, 0, fresh, 5, 16)).toBe(true);
    expect(pastFresh(withFresh, 0, fresh, 10, 1)).toBe(true);
    // Later in rank order, only within the share; a carried fact is not held.
    expect(pastFresh(withFresh, 3, fresh, 5, 6)).toBe(true);
    expect(pastFresh(withFresh, 3, fact('y', 2, { round: 1 }), 5, 60)).toBe(false);
    expect(pastFresh(first, 0, fresh, 50, 50)).toBe(false);
  });

  it('gives a later round’s new facts the first room, the carried ones the rest', () => {
    const { kf } = keyFacts(40);
    const carried = facts(4, 1);
    const news = facts(3, 2).map((f, i) => ({ ...f, text: `New fact ${i} says four.`, seq: 10 + i }));
    const pool = [...carried, ...news];
    const record = blank({ round: 2, facts: pool });
    kf.takeRanked(pool, kf.firstPass(pool, record));
    expect(kf.facts.filter((f) => f.round === 2).length).toBeGreaterThan(0);
    expect(kf.facts[0]!.round).toBe(2);
  });

  it('fills the room the block measured whole leaves with the next facts, within the limit', () => {
    const { draft, kf } = keyFacts(17);
    const pool = facts(4);
    kf.takeRanked(pool, none);
    expect(kf.facts).toHaveLength(1);
    draft.lines.set('facts', kf.lines);
    kf.fillSlack(pool, 40);
    expect(kf.facts.length).toBeGreaterThan(1);
    expect(draft.lines.get('facts')).toEqual(kf.lines);
    expect(words(kf.lines.join('\n'))).toBeLessThanOrEqual(40);
    // No room: nothing more.
    const tight = keyFacts(17);
    tight.kf.takeRanked(pool, none);
    tight.draft.lines.set('facts', tight.kf.lines);
    tight.kf.fillSlack(pool, 12);
    expect(tight.kf.facts).toHaveLength(1);
  });
});
