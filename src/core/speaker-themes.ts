// Who a speaker is, between two people, when they never say it in so many words ("I'm a musician"):
// what they come back to, session after session, more than the other does — Calvin's music, his tour and
// his mansion in Japan; John's team and his games. The sentence of theirs that holds most of those
// recurring words stands for them under "About <name>" (thread-format.ts). Readers of the block
// named "who the people are" first among what a summary of a long chat must say. Pure.
import type { Sentence } from './extract-sentences';
import { isReaction, opensOnPointer, pointsEarly, goesOn } from './salience';
import { FIRST_PERSON, QUESTION, SHORT_EXCLAMATION } from './traits';
import { isContentWord, wordOf } from './vocab';
import { idsOf } from './fact-weights';

/** Sessions a word must be said in by a speaker to be one of their themes, at least. */
const MIN_SESSIONS = 3;
/** How many more sessions the speaker says a theme word in than the other side, as a factor. */
const OWN_SHARE = 2;
/** Theme words a sentence must hold to stand for its speaker. */
const MIN_THEME_WORDS = 2;
/** Longest sentence (words) that may stand for its speaker: a line under a head, not a story. */
const MAX_WORDS = 35;

/** Per word id, the sessions a side said it in. */
type SessionsOf = Map<number, Set<number>>;

function sessionsOfWords(usable: readonly Sentence[], role: string, sessionOf: (s: Sentence) => number | undefined, names: ReadonlySet<string>): { sessions: SessionsOf; total: number } {
  const sessions: SessionsOf = new Map();
  const all = new Set<number>();
  for (const s of usable) {
    if (s.role !== role || !standsForSpeaker(s)) continue;
    const session = sessionOf(s);
    if (session === undefined) continue;
    all.add(session);
    for (const id of ownIds(s)) {
      if (!isContentWord(id) || names.has(wordOf(id))) continue;
      let set = sessions.get(id);
      if (!set) sessions.set(id, (set = new Set()));
      set.add(session);
    }
  }
  return { sessions, total: all.size };
}

/** A sentence's own words (a bracketed aside describes a picture, not the speaker). */
function ownIds(s: Sentence): readonly number[] {
  return s.text.includes('[') ? idsOf(s.text.replace(/\[[^\]]*\]/g, ' ')) : s.ids;
}

/** A plan ("I'm looking forward to my upcoming trip to Boston"): who the speaker is stays, a plan is
 * soon done or dropped — readers found October's block still telling of April's plan. */
const PLAN = /\b(?:looking forward|upcoming|planning to|plan to|going to|gonna|can['’]t wait|next (?:week|weekend|month|year|season))\b/i;

/** Whether a sentence may stand for who its speaker is: their own words about themselves, whole. */
function standsForSpeaker(s: Sentence): boolean {
  return !PLAN.test(s.text) && (s.traits & FIRST_PERSON) !== 0 && (s.traits & (QUESTION | SHORT_EXCLAMATION)) === 0 && s.wc <= MAX_WORDS && !opensOnPointer(s.text) && !pointsEarly(s.text) && !goesOn(s.text) && !isReaction(s.text);
}

/**
 * The sentence that stands for each side (one per role at most): of the side's own first-person
 * sentences, the one holding most of the words they say in many sessions and the other side seldom
 * does (each weighed by its share of their sessions). None for a side that talked in fewer than
 * MIN_SESSIONS sessions, or whose best sentence holds fewer than MIN_THEME_WORDS such words.
 */
export function speakerThemes(usable: readonly Sentence[], sessionOf: (s: Sentence) => number | undefined, speakerNames: readonly string[] = []): Set<Sentence> {
  const out = new Set<Sentence>();
  // (The other's name is said to them in every session: no theme of the speaker's.)
  const names = new Set(speakerNames.map((n) => n.toLowerCase()));
  const sides = { user: sessionsOfWords(usable, 'user', sessionOf, names), assistant: sessionsOfWords(usable, 'assistant', sessionOf, names) };
  for (const role of ['user', 'assistant'] as const) {
    const own = sides[role];
    const other = sides[role === 'user' ? 'assistant' : 'user'];
    if (own.total < MIN_SESSIONS) continue;
    const weight = new Map<number, number>();
    for (const [id, d] of own.sessions) {
      const theirs = other.sessions.get(id)?.size ?? 0;
      if (d.size >= MIN_SESSIONS && d.size >= OWN_SHARE * theirs) weight.set(id, d.size / own.total);
    }
    let best: Sentence | null = null;
    let bestScore = 0;
    for (const s of usable) {
      if (s.role !== role || !standsForSpeaker(s)) continue;
      let n = 0;
      let score = 0;
      for (const id of ownIds(s)) {
        const w = weight.get(id);
        if (w === undefined) continue;
        n++;
        score += w;
      }
      if (n >= MIN_THEME_WORDS && score > bestScore) {
        best = s;
        bestScore = score;
      }
    }
    if (best) out.add(best);
  }
  return out;
}
