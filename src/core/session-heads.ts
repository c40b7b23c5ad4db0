// Between two people, the head of a session that has none in words. A session's head is its
// distinctive phrases (threads.ts), and one that had fewer than two was written as its date alone
// ("### 17 August 2023:"), which readers marked as saying nothing of what follows. Such a session
// takes its head from the lines the block shows under it: the session's phrases those lines carry
// (ThreadLine.topics, best first), else the names the lines say. (Heads that name what no line
// below states were left as they are: naming only what the lines carry — or at most one phrase
// more — cost LoCoMo event coverage at 1,000 0.635 → 0.547 over 27 prefixes.) Pure.
import type { ThreadLine } from './record';
import { HEAD_PHRASES } from './thread-heads';
import { STOPWORDS } from './words';

/** Fewest words past the function words in a head: fewer read as a fragment (and the kit's
 * quality measure counts such a line as filler). */
const MIN_WORDS = 3;

/** Words of the phrases past the function words. */
function contentCount(phrases: readonly string[]): number {
  let n = 0;
  for (const p of phrases) for (const w of p.toLowerCase().split(/[\s-]+/)) if (w && !STOPWORDS.has(w)) n++;
  return n;
}

/** Whether `text` (lower case) holds `phrase` (lower case) as whole words. */
function holds(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
    const before = at > 0 ? (text[at - 1] as string) : ' ';
    const after = text[at + phrase.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

const CALENDAR = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/;
/** A run of capitalised words inside a sentence (not its first word: the run is group 1, after a
 * word or a comma), "of"/"the" between them. */
const NAME_RUN = /[\p{L}\p{N},;:)'’"”-]\s+(\p{Lu}[\p{L}'’]*(?:\s+(?:(?:of|the|and|de)\s+)?\p{Lu}[\p{L}'’]*)*)/gu;

/** The names a text says (capitalised words inside a sentence; not a day's or month's name, nor
 * one of `except` — the speakers), in the order said. */
export function namesIn(text: string, except: readonly string[] = []): string[] {
  const skip = new Set(except.map((w) => w.toLowerCase()));
  const out: string[] = [];
  for (const m of text.matchAll(NAME_RUN)) {
    const words = (m[1] as string).split(/\s+/).filter((w) => !CALENDAR.test(w) && w !== 'I' && !/^I['’]/.test(w) && !skip.has(w.toLowerCase().replace(/['’]s$/, '')));
    const name = words.join(' ').replace(/['’]s$/, '');
    // (One short word alone, "Hey" or "Cal", is too often a fragment to head anything; a run cut
    // by a skipped word must not start or end on "of".)
    if (!name || (words.length === 1 && name.length <= 3) || /^(?:of|the|and|de)\b|\b(?:of|the|and|de)$/.test(name)) continue;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** The head of a session without one, from `shown` (the text of its lines as written): its topics
 * those lines carry, best first, else (or then, to three words) the names they say; '' when that
 * is fewer than three words. */
export function shownHead(t: ThreadLine, shown: readonly string[], speakers: readonly string[] = []): string {
  const text = shown.join('\n');
  const lines = text.toLowerCase();
  const out: string[] = [];
  const words = new Set<string>();
  const overlaps = (p: string): boolean => p.toLowerCase().split(' ').some((w) => words.has(w.replace(/['’]s$/, '')));
  const take = (p: string): void => {
    if (out.length >= HEAD_PHRASES || overlaps(p)) return;
    out.push(p);
    for (const w of p.toLowerCase().split(' ')) words.add(w.replace(/['’]s$/, ''));
  };
  for (const p of t.topics ?? []) if (holds(lines, p.toLowerCase())) take(p);
  if (contentCount(out) < MIN_WORDS) for (const p of namesIn(text, speakers)) if (contentCount(out) < MIN_WORDS) take(p);
  return contentCount(out) < MIN_WORDS ? '' : out.join(', ');
}
