// Word pairs of a query found side by side in a text ("the 5K charity run" in "did a 5K charity run
// today", not in "a charity 5K run/walk"): words that name one thing together are written together,
// so a text holding a pair speaks of what the query names, where a text holding the same words
// apart may speak of something else. Stopwords are skipped on both sides ("participate in the 5K"
// pairs "participate" with "5K"). The cross-conversation search (cross-search.ts) counts them in
// the messages of its best candidates. Pure.
import { cachedStem, searchTerms } from './search-terms';
import { STOPWORDS } from './words';

/** A text's terms as searched (stemmed), its stopwords left out, in order. */
export function contentTerms(text: string): string[] {
  // One pass unstemmed (stopwords are judged on the word as written), then the rest stemmed: what
  // `searchTerms` would give (its stemmer leaves CJK bigrams and other non-Latin terms alone).
  const out: string[] = [];
  for (const word of searchTerms(text, { stem: false })) if (!STOPWORDS.has(word)) out.push(cachedStem(word));
  return out;
}

/** The ordered pairs of neighbouring content terms of `query`, each once, as "first second". A
 * pair of one term twice is left out: it says nothing of the words' order. */
export function queryPairs(query: string): string[] {
  const terms = contentTerms(query);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) if (terms[i] !== terms[i + 1]) pairs.add(`${terms[i] as string} ${terms[i + 1] as string}`);
  return [...pairs];
}

/** How often each of `pairs` occurs in `text` (content terms side by side, in that order). */
export function pairCounts(text: string, pairs: readonly string[]): number[] {
  const counts = pairs.map(() => 0);
  if (!pairs.length) return counts;
  const at = new Map(pairs.map((p, i) => [p, i]));
  const terms = contentTerms(text);
  for (let i = 0; i + 1 < terms.length; i++) {
    const k = at.get(`${terms[i] as string} ${terms[i + 1] as string}`);
    if (k !== undefined) counts[k] = (counts[k] as number) + 1;
  }
  return counts;
}
