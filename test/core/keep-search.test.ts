import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockDraft } from '../../src/core/block-draft';
import { keepCountingDown, keepFromGuess } from '../../src/core/keep-search';
import type { ConversationKind, SourcedLine, ThreadLine } from '../../src/core/record';
import { type FirstPass, KeyFacts } from '../../src/core/render-facts';
import { FactLayout } from '../../src/core/thread-format';
import { estimateTokens } from '../../src/core/tokens';

describe('how many facts are kept (search from a guess)', () => {
  it('keeps what counting down keeps when fewer facts never measure more, from any guess', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: -5, max: 90 }), fc.integer({ min: 0, max: 80 }), (n, guess, fitUpTo) => {
        const fits = (m: number) => m <= fitUpTo;
        expect(keepFromGuess(n, guess, fits)).toBe(keepCountingDown(n, guess, fits));
      }),
    );
  });

  it('measures two layouts when the guess is right, where counting down measures one per fact dropped', () => {
    const counted = (search: typeof keepFromGuess, guess: number) => {
      let calls = 0;
      const kept = search(60, guess, (m) => (calls++, m <= 43));
      return { kept, calls };
    };
    expect(counted(keepFromGuess, 43)).toEqual({ kept: 43, calls: 2 });
    expect(counted(keepCountingDown, 43)).toEqual({ kept: 43, calls: 17 });
    // A guess far off still takes few.
    expect(counted(keepFromGuess, 5).calls).toBeLessThanOrEqual(40);
    expect(counted(keepFromGuess, 59).calls).toBeLessThanOrEqual(12);
  });
});

// Generated facts of several speakers, days, messages, lists and threads, laid out as the render
// does, with the core's own estimate.
const WORDS = ['garden', 'budget', 'the', 'migration', 'we', 'decided', 'to', 'keep', 'Priya', 'said', '**Lamp**', 'invoice', '2700K', 'notes', '会议', 'plan', 'ship', 'Friday'];
const DAY = 86_400_000;
const factArb = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 25 }),
  msg: fc.integer({ min: 0, max: 40 }),
  day: fc.integer({ min: 0, max: 9 }),
  thread: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  listed: fc.boolean(),
  asked: fc.option(fc.constantFrom('What lamp should I buy?', 'Which colour?'), { nil: undefined }),
  score: fc.double({ min: 0, max: 5, noNaN: true }),
});

type Spec = { words: string[]; msg: number; day: number; thread: number | undefined; listed: boolean; asked: string | undefined; score: number };

function generated(specs: readonly Spec[]): SourcedLine[] {
  return specs.map((s, i) => ({
    text: s.listed ? s.words.slice(0, 6).join('; ') : `${s.words.join(' ')}.`,
    sources: [`m${s.msg}`],
    at: s.day ? 1_700_000_000_000 + s.day * DAY : 0,
    score: s.score,
    round: 1,
    seq: s.msg * 100 + i,
    ...(s.thread !== undefined ? { thread: s.thread } : {}),
    ...(s.listed ? { listed: true } : {}),
    ...(s.listed && s.asked ? { asked: s.asked } : {}),
  }));
}

const threadsOf = (count: number): ThreadLine[] =>
  Array.from({ length: count }, (_, id) => ({ id, text: `Thread ${id} about the ${WORDS[id]} plan`, sources: [`m${id}`], at: 0, score: 1, round: 1, head: id % 2 ? 'phrases' : 'request', from: 1_700_000_000_000 + id * DAY, to: 1_700_000_000_000 + (id + 1) * DAY }));

describe('the key facts dropped to fit', () => {
  it('are the ones dropping one at a time drops: the same facts, lines and room used', () => {
    const cost = (s: string) => estimateTokens(s, 'gpt-4o');
    fc.assert(
      fc.property(
        fc.array(factArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 20, max: 500 }),
        fc.constantFrom<ConversationKind>('assist', 'talk', 'work'),
        fc.integer({ min: 0, max: 4 }),
        (specs, target, kind, threads) => {
          const pool = generated(specs).sort((a, b) => b.score - a.score);
          const run = (keep: typeof keepFromGuess) => {
            const draft = new BlockDraft(target, cost, new Set());
            const roles = (id: string) => (Number(id.slice(1)) % 2 ? 'assistant' : 'user');
            const layout = new FactLayout({ threads: threadsOf(threads), kind, roleOf: roles });
            const kf = new KeyFacts(draft, layout, threads >= 2, () => false);
            const first: FirstPass = { fresh: [], freshRoom: 0, spread: threads >= 2 ? layout.spread(pool) : [], spreadShare: 0.6, round: 1 };
            kf.takeRanked(pool, first, keep);
            return { facts: kf.facts.map((f) => f.seq), lines: kf.lines, used: draft.used, shown: [...draft.shown].sort() };
          };
          expect(run(keepFromGuess)).toEqual(run(keepCountingDown));
        },
      ),
      { numRuns: 400 },
    );
  });
});
