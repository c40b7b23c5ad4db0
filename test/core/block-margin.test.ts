// The block's margin holds the block within its budget by the real tokenizer's count: for text of
// every kind (English prose, accented Latin, other scripts, CJK, emoji, code, padded tables, paths
// and URLs, and mixes of them), at small and large budgets, and for every tokenizer family (the
// block written for a model of the family, counted by that family's own tokenizer), a rendered
// block's estimate plus its margin is at least its real count, and the real count is within the
// budget.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN, HARD_SLACK_TOKENS, PROSE_MARGIN, UNDER, UNDER_BY_FAMILY, blockMargin, kindOf, marginFor, shareFor } from '../../src/core/block-margin';
import { renderBlock } from '../../src/core/render';
import { estimateTokens } from '../../src/core/tokens';
import { lines } from './margin-texts';
import { EXACT, FAMILIES, MODEL, freeReferences } from './reference-counts';
import { blank, line } from './render-records';

afterAll(freeReferences);
const cost = (t: string): number => estimateTokens(t, MODEL.o200k);

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
    expect(marginFor(['We booked the cabin by the lake.', 'The train leaves at nine.'], cost, 'o200k')).toBe(PROSE_MARGIN);
    expect(marginFor(['const x = { a: 1 };', 'if (x.a > 0) { run(x); }'], cost, 'o200k')).toBe(DEFAULT_MARGIN);
    expect(marginFor(['Zarezerwowaliśmy domek nad jeziorem na drugi tydzień sierpnia.'], cost, 'o200k')).toBe(UNDER.latinext);
    expect(marginFor([], cost, 'o200k')).toBe(PROSE_MARGIN);
  });

  it("takes the figures of the model's tokenizer family (the estimator's default family when none is given)", () => {
    const chinese = ['我们预订了湖边的小屋，时间是八月的第二周。'];
    for (const family of FAMILIES) expect(marginFor(chinese, (t) => estimateTokens(t, MODEL[family]), family)).toBe(UNDER_BY_FAMILY[family].under.cjk);
    expect(marginFor(chinese)).toBe(UNDER_BY_FAMILY.cl100k.under.cjk);
    // Claude's count runs further past the estimate on CJK than o200k's does: held back more.
    expect(UNDER_BY_FAMILY.claude.under.cjk).toBeGreaterThan(UNDER_BY_FAMILY.o200k.under.cjk);
  });

  it('takes a mix by the share of tokens of each kind, never under the prose margin', () => {
    const english = Array.from({ length: 9 }, () => 'We booked the cabin by the lake for the second week of August.');
    const czech = 'Rezervovali jsme chatu u jezera na druhý týden v srpnu a těšíme se.';
    // A path among English lines: English prose's own headroom covers it.
    expect(marginFor([...english, 'Edited src/core/render.ts'], cost, 'o200k')).toBe(PROSE_MARGIN);
    expect(marginFor([...english, czech], cost, 'o200k')).toBeGreaterThan(PROSE_MARGIN);
    const half = [...english.slice(0, 2), czech, czech];
    const m = marginFor(half, cost, 'o200k');
    expect(m).toBeGreaterThan(PROSE_MARGIN);
    expect(m).toBeLessThan(UNDER.latinext);
    // The real count's bound: Σ w / (1 − u) over the lines (prose at its many-line figure, 3 %).
    const w = half.map(cost);
    const bound = w.reduce((a, x, i) => a + x / (1 - (i < 2 ? 0.03 : UNDER.latinext)), 0);
    const sum = w.reduce((a, x) => a + x, 0);
    expect(m).toBeGreaterThanOrEqual(1 - sum / bound);
    expect(m).toBeLessThan(1 - sum / bound + 0.001);
  });

  it('judges each sentence of a line apart', () => {
    const english = 'We booked the cabin by the lake for the second week of August.';
    const czech = 'Moje sestra se ptala, jestli letos vezmeme kola.';
    expect(marginFor([`${english} ${czech}`], cost, 'o200k')).toBe(marginFor([english, czech], cost, 'o200k'));
    expect(marginFor([`${english} ${czech}`], cost, 'o200k')).toBeGreaterThan(PROSE_MARGIN);
  });

  it('holds a few tokens more than the share for text harder than English prose, which a small block feels', () => {
    expect(shareFor(PROSE_MARGIN, 100, 'o200k')).toBe(PROSE_MARGIN);
    expect(shareFor(0.2, 100, 'o200k')).toBeCloseTo(0.2 + HARD_SLACK_TOKENS / 100);
    // A family whose count runs a few tokens past a small block's estimate holds them back in every block.
    for (const family of FAMILIES) expect(shareFor(UNDER_BY_FAMILY[family].under.prose, 100, family)).toBeCloseTo(UNDER_BY_FAMILY[family].under.prose + UNDER_BY_FAMILY[family].slack / 100);
  });

  it('of a written block leaves its tags out', () => {
    expect(blockMargin('<previous_context>\nKey facts:\n- We booked the cabin.\n</previous_context>', cost, 'o200k')).toBe(PROSE_MARGIN);
  });

  // Every kind of text, one to three kinds a conversation, at budgets from a small block's to a
  // large one's: 3,000 blocks a family, the same ones every run (fixed seed; the figures were
  // measured on other seeds, bench/block-margins.mjs), each written for a model of the family and
  // counted by the family's own tokenizer.
  it.each(FAMILIES)('holds a rendered block within its budget by %s: its estimate plus its margin is at least its real count', (family) => {
    const model = MODEL[family];
    const estimate = (t: string): number => estimateTokens(t, model);
    fc.assert(
      fc.property(lines, fc.boolean(), fc.oneof(fc.integer({ min: 40, max: 300 }), fc.integer({ min: 300, max: 2500 })), (texts, withGoal, budget) => {
        const record = blank({
          goal: withGoal ? line(texts[0] as string) : null,
          facts: texts.slice(withGoal ? 1 : 0).map((t, i) => line(t, { sources: [`m${i}`], score: 100 - i, seq: i })),
        });
        const block = renderBlock(record, { budgetTokens: budget, model });
        if (!block) return;
        const real = EXACT[family](block);
        expect(estimate(block) + Math.ceil(budget * shareFor(blockMargin(block, estimate, family), budget, family))).toBeGreaterThanOrEqual(real);
        expect(real).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 3000, seed: 43 },
    );
  });
});
