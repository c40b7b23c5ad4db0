// Between two people, what each of them came back with: their first message of a session that
// tells news (after "Hey Dave! Long time no chat! Lots has gone down since we last caught up."),
// where a person tells what happened since they last talked. compact.ts marks the facts said there (SourcedLine.opens: first in their
// session's spread, thread-format.ts); extract-facts keeps its most newsworthy sentence in the pool.
// Pure.
import type { Sentence } from './extract-sentences';
import { isFactSentence } from './fact-sentences';
import { newsRank } from './salience';

/** How many of a side's first messages in a session (those holding a fact sentence) may be its
 * opening: "Hey Dave! Long time no chat! Lots has gone down since we last caught up." says nothing
 * yet, the flood comes in the next one. (LoCoMo at 1,000: recall 0.538 → 0.552, events 0.590 →
 * 0.611; at 2,000 0.717 → 0.717, 0.882 → 0.875.) */
const OPENING_LOOKAHEAD = 2;

/** The ids of each side's first message in each session that tells news (salience.ts newsRank),
 * among its first OPENING_LOOKAHEAD messages there holding a fact sentence; else its first such
 * message. */
export function openingMessages(sentences: readonly Sentence[], sessionOf: (s: Sentence) => number | undefined): Set<string> {
  // Per session and side: the messages seen so far (ids, in order) and whether one told news.
  const seen = new Map<string, { ids: string[]; news: boolean }>();
  for (const s of sentences) {
    if (s.role !== 'user' && s.role !== 'assistant') continue;
    const t = sessionOf(s);
    if (t === undefined || !isFactSentence(s)) continue;
    const key = `${t}:${s.role}`;
    let side = seen.get(key);
    if (!side) seen.set(key, (side = { ids: [], news: false }));
    if (side.news) continue;
    if (side.ids[side.ids.length - 1] !== s.id) {
      if (side.ids.length >= OPENING_LOOKAHEAD) continue;
      side.ids.push(s.id);
    }
    if (newsRank(s.text) > 0) {
      side.news = true;
      side.ids = [s.id];
    }
  }
  return new Set([...seen.values()].map((side) => side.ids[0] as string));
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
