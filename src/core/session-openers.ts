// Between two people, what each of them came back with: their first message of a session that
// says something (after "Hey Dave! Long time no chat!"), where a person tells what happened since
// they last talked. compact.ts marks the facts said there (SourcedLine.opens: first in their
// session's spread, thread-format.ts); extract-facts keeps its most newsworthy sentence in the pool.
// Pure.
import type { Sentence } from './extract-sentences';
import { isFactSentence } from './fact-sentences';
import { newsRank } from './salience';

/** The ids of each side's first message in each session that holds a fact sentence. */
export function openingMessages(sentences: readonly Sentence[], sessionOf: (s: Sentence) => number | undefined): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const s of sentences) {
    if (s.role !== 'user' && s.role !== 'assistant') continue;
    const t = sessionOf(s);
    if (t === undefined || !isFactSentence(s)) continue;
    const key = `${t}:${s.role}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.add(s.id);
  }
  return out;
}

/** Of the usable sentences, each side's news as they came back to a session: the most newsworthy
 * sentence (salience.ts newsRank) of their opening message (openingMessages), when it has one. */
export function openingNews(usable: readonly Sentence[], sessionOf: (s: Sentence) => number | undefined): Set<Sentence> {
  const opening = openingMessages(usable, sessionOf);
  const best = new Map<string, { s: Sentence; rank: number }>();
  for (const s of usable) {
    if (!opening.has(s.id)) continue;
    const rank = newsRank(s.text);
    const key = `${sessionOf(s)}:${s.role}`;
    const b = best.get(key);
    if (rank > 0 && (!b || rank > b.rank)) best.set(key, { s, rank });
  }
  return new Set([...best.values()].map((b) => b.s));
}
