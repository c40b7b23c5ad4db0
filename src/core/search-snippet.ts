// A snippet of a message around what a search matched, with the matching words marked: for the
// compaction panel's search box (the user sees why a message came up). The words are found as the
// index finds them (search-terms.ts: folded, stemmed, CJK as bigrams), so "recommending" marks
// "recommended". Pure: the view renders `marks` as <mark> elements, never as HTML.
import { parseQuery } from './search';
import { WORD, searchTerms } from './search-terms';

export interface Snippet {
  /** The excerpt, with "…" where it was cut (whitespace as in the message: the view collapses it). */
  text: string;
  /** [start, end) ranges of `text` to mark, in order, not overlapping. */
  marks: [number, number][];
}

/** Marks beyond this many are not looked for: a snippet shows a handful. */
const MAX_MARKS = 200;
/** Han, Hiragana, Katakana and Hangul (as search-terms.ts). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** About `maxChars` of `text` around the densest run of words matching `query`, or its start when
 * no word matches (a message can rank by its speaker or its neighbours). Never cuts a surrogate
 * pair; cuts at a space when one is near. */
export function searchSnippet(text: string, query: string, maxChars = 160): Snippet {
  const wanted = new Set(parseQuery(query).terms);
  const cjkWanted = [...wanted].filter((t) => CJK.test(t));
  const found: [number, number][] = [];
  for (const match of text.matchAll(WORD)) {
    if (found.length >= MAX_MARKS) break;
    const word = match[0];
    const at = match.index ?? 0;
    const terms = searchTerms(word);
    if (terms.length === 1 && wanted.has(terms[0] as string)) {
      found.push([at, at + word.length]);
      continue;
    }
    // A run of CJK (several bigrams): mark each wanted bigram where it occurs inside the run.
    if (!cjkWanted.length || !CJK.test(word)) continue;
    const inWord: [number, number][] = [];
    for (const term of cjkWanted) {
      for (let i = word.indexOf(term); i >= 0; i = word.indexOf(term, i + 1)) inWord.push([at + i, at + i + term.length]);
    }
    found.push(...merge(inWord));
  }
  // The window holding the most marks, starting a little before its first one.
  let best = 0;
  let bestCount = 0;
  for (let i = 0, j = 0; i < found.length; i++) {
    while (j < found.length && (found[j] as [number, number])[1] - (found[i] as [number, number])[0] <= maxChars) j++;
    if (j - i > bestCount) {
      bestCount = j - i;
      best = i;
    }
  }
  const anchor = found[best];
  let start = anchor ? Math.max(0, anchor[0] - Math.floor(maxChars / 4)) : 0;
  let end = Math.min(text.length, start + maxChars);
  if (end === text.length) start = Math.max(0, end - maxChars);
  start = nearSpace(text, start, 1);
  end = nearSpace(text, end, -1);
  if (start > 0 && isLow(text.charCodeAt(start))) start++;
  if (end < text.length && isLow(text.charCodeAt(end))) end--;
  const head = start > 0 ? '…' : '';
  const body = text.slice(start, end);
  const marks = found
    .filter(([a, b]) => a >= start && b <= end)
    .map(([a, b]): [number, number] => [a - start + head.length, b - start + head.length]);
  return { text: `${head}${body}${end < text.length ? '…' : ''}`, marks };
}

/** Overlapping ranges joined, in order. */
function merge(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** `at` moved (in `direction`) just past a space within 16 characters, when there is one and `at`
 * is inside the text; otherwise `at`. */
function nearSpace(text: string, at: number, direction: 1 | -1): number {
  if (at <= 0 || at >= text.length) return at;
  for (let i = 0; i < 16; i++) {
    const p = at + direction * i;
    if (p <= 0 || p >= text.length) break;
    if (/\s/.test(text[p] as string)) return direction === 1 ? p + 1 : p;
  }
  return at;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
