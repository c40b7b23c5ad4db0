// The block's margin holds the block within its budget by the real tokenizer's count: for text of
// every kind (English prose, accented Latin, other scripts, CJK, emoji, code, padded tables, paths
// and URLs, and mixes of them), at small and large budgets, a rendered block's estimate plus its
// margin is at least its o200k count, and the o200k count is within the budget.
import fc from 'fast-check';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN, HARD_SLACK_TOKENS, PROSE_MARGIN, UNDER, blockMargin, kindOf, marginFor, shareFor } from '../../src/core/block-margin';
import { renderBlock } from '../../src/core/render';
import { estimateTokens } from '../../src/core/tokens';
import { lines } from './margin-texts';
import { blank, line } from './render-records';

const plain = { disallowedSpecial: new Set<string>() };
const MODEL = 'gpt-4o';
const cost = (t: string): number => estimateTokens(t, MODEL);

describe('the kind of a line', () => {
  it('tells English prose from the text the estimator under-counts more', () => {
    expect(kindOf('We booked the cabin by the lake for the second week of August.')).toBe('prose');
    // An accented name in English prose is English prose.
    expect(kindOf('We met José at the lake, then booked the cabin by the water for the second week of August.')).toBe('prose');
    expect(kindOf('Wir haben die Hütte am See für die zweite Augustwoche gebucht, die Größe passt.')).toBe('latin');
    expect(kindOf('Zarezerwowaliśmy domek nad jeziorem na drugi tydzień sierpnia.')).toBe('latinext');
    // Another language with no letter that says which: the worst Latin figure.
    expect(kindOf('Moje sestra se ptala, jestli letos vezmeme kola.')).toBe('latinext');
    expect(kindOf('Abbiamo prenotato la baita vicino al lago per la seconda settimana di agosto.')).toBe('latinext');
    expect(kindOf('Ми забронювали будиночок біля озера на другий тиждень серпня.')).toBe('cyrillic');
    expect(kindOf('Κλείσαμε το σπιτάκι δίπλα στη λίμνη για τη δεύτερη εβδομάδα.')).toBe('script');
    expect(kindOf('我们预订了湖边的小屋，时间是八月的第二周。')).toBe('cjk');
    expect(kindOf('Release day 🎉 thanks everyone')).toBe('emoji');
    expect(kindOf('| Piranesi       | Susanna Clarke   |')).toBe('table');
    expect(kindOf('const x = { a: 1 }; if (x.a > 0) { run(x); }')).toBe('code');
    expect(kindOf('Edited /home/ana/src/core/render.ts')).toBe('path');
    expect(kindOf('Commit 3d4bafc48182284c13a8a690aa7446a1e2ea1ea3 is on main')).toBe('path');
  });
});

describe('the margin of a block', () => {
  it("is a kind's own figure when every line is of that kind, the narrow one for English prose", () => {
    expect(marginFor(['We booked the cabin by the lake.', 'The train leaves at nine.'])).toBe(PROSE_MARGIN);
    expect(marginFor(['const x = { a: 1 };', 'if (x.a > 0) { run(x); }'])).toBe(DEFAULT_MARGIN);
    expect(marginFor(['Zarezerwowaliśmy domek nad jeziorem na drugi tydzień sierpnia.'])).toBe(UNDER.latinext);
    expect(marginFor([])).toBe(PROSE_MARGIN);
  });

  it('takes a mix by the share of tokens of each kind, never under the prose margin', () => {
    const english = Array.from({ length: 9 }, () => 'We booked the cabin by the lake for the second week of August.');
    const czech = 'Rezervovali jsme chatu u jezera na druhý týden v srpnu a těšíme se.';
    // A path among English lines: English prose's own headroom covers it.
    expect(marginFor([...english, 'Edited src/core/render.ts'])).toBe(PROSE_MARGIN);
    expect(marginFor([...english, czech])).toBeGreaterThan(PROSE_MARGIN);
    const half = [...english.slice(0, 2), czech, czech];
    const m = marginFor(half);
    expect(m).toBeGreaterThan(PROSE_MARGIN);
    expect(m).toBeLessThan(UNDER.latinext);
    // The real count's bound: Σ w / (1 − u) over the lines (prose at its many-line figure, 3 %).
    const w = half.map((t) => estimateTokens(t));
    const bound = w.reduce((a, x, i) => a + x / (1 - (i < 2 ? 0.03 : UNDER.latinext)), 0);
    const sum = w.reduce((a, x) => a + x, 0);
    expect(m).toBeGreaterThanOrEqual(1 - sum / bound);
    expect(m).toBeLessThan(1 - sum / bound + 0.001);
  });

  it('judges each sentence of a line apart', () => {
    const english = 'We booked the cabin by the lake for the second week of August.';
    const czech = 'Moje sestra se ptala, jestli letos vezmeme kola.';
    expect(marginFor([`${english} ${czech}`])).toBe(marginFor([english, czech]));
    expect(marginFor([`${english} ${czech}`])).toBeGreaterThan(PROSE_MARGIN);
  });

  it('holds a few tokens more than the share for text harder than English prose, which a small block feels', () => {
    expect(shareFor(PROSE_MARGIN, 100)).toBe(PROSE_MARGIN);
    expect(shareFor(0.2, 100)).toBeCloseTo(0.2 + HARD_SLACK_TOKENS / 100);
  });

  it('of a written block leaves its tags out', () => {
    expect(blockMargin('<previous_context>\nKey facts:\n- We booked the cabin.\n</previous_context>')).toBe(PROSE_MARGIN);
  });

  // Every kind of text, one to three kinds a conversation, at budgets from a small block's to a
  // large one's: 3,000 blocks, the same ones every run (fixed seed).
  it('holds a rendered block within its budget by o200k: its estimate plus its margin is at least its o200k count', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), fc.oneof(fc.integer({ min: 40, max: 300 }), fc.integer({ min: 300, max: 2500 })), (texts, withGoal, budget) => {
        const record = blank({
          goal: withGoal ? line(texts[0] as string) : null,
          facts: texts.slice(withGoal ? 1 : 0).map((t, i) => line(t, { sources: [`m${i}`], score: 100 - i, seq: i })),
        });
        const block = renderBlock(record, { budgetTokens: budget, model: MODEL });
        if (!block) return;
        const real = o200k(block, plain);
        expect(cost(block) + Math.ceil(budget * shareFor(blockMargin(block, cost), budget))).toBeGreaterThanOrEqual(real);
        expect(real).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 3000, seed: 43 },
    );
  });
});
