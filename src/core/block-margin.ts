// The share of a block's budget held back for the token estimator's error: the plugin ships no
// tokenizer, so the estimate is all there is, and how far it can be off depends on the text.
import type { CompactionRecord } from './record';

/** Share of the budget held back for the estimator's error on text it is least sure of: other
 * scripts, accented Latin, code (bench:tokens: worst under-counts of 13–16 % per sample there). */
export const DEFAULT_MARGIN = 0.1;
/** The margin for plain English prose, the estimator's best-known text: on the retention kit's
 * dialogue blocks it ran 1 % under to 3 % over o200k, on its agent blocks at most 3 % under, and a
 * block averages over hundreds of words; the wide margin left a tenth of the room unused there. */
export const PROSE_MARGIN = 0.05;

/** The margin for a block made of these texts: the narrow one when they are plain English prose
 * (all but 1 % of characters ASCII or typographic punctuation, few code characters), the wide one otherwise. */
export function marginFor(texts: readonly string[]): number {
  let all = 0;
  let foreign = 0;
  let code = 0;
  for (const t of texts) {
    all += t.length;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      // Typographic punctuation (curly quotes, dashes, ellipsis) is as plain as its ASCII forms.
      if (c > 0x7e && (c < 0x2000 || c > 0x206f) && c !== 0xa0) foreign++;
      // { } < > = _ \ ; and the backtick: code and markup rather than prose.
      else if (c === 0x7b || c === 0x7d || c === 0x3c || c === 0x3e || c === 0x3d || c === 0x5f || c === 0x5c || c === 0x3b || c === 0x60) code++;
    }
  }
  return all > 0 && foreign <= all * 0.01 && code <= all * 0.02 ? PROSE_MARGIN : DEFAULT_MARGIN;
}

/** The texts a block of this record draws from (the facts the block can hold, not the whole pool). */
function blockTexts(record: CompactionRecord): string[] {
  const lines = [record.goal, record.request, record.leftOff, record.nextStep, ...record.constraints, ...record.decisions, ...record.done, ...record.openTasks, ...record.errors, ...record.facts.slice(0, 80)];
  return [...lines.map((l) => l?.text ?? ''), ...record.filesModified.map((f) => f.path), ...record.filesRead.map((f) => f.path)];
}

/** The margin for a block of this record (see {@link marginFor}). */
export function recordMargin(record: CompactionRecord): number {
  return marginFor(blockTexts(record));
}
