// What the agent said of the code it looked at: for each definition the State's "Looked at" names
// (code-places.ts), the agent's latest finding that names it first, as code — "`get_order_by` adds
// each clause's last line to `seen`." Readers found "get_order_by at line 252" named code without
// saying what it does or why it mattered. The finding is the agent's own sentence, whole; not a
// step it announced, a question, a lead-in or its thinking aloud. Pure.
import type { Sentence } from './extract-sentences';
import { type CodePlace, placeNamed } from './code-places';
import { INTENTION } from './extract-goal';
import { findingOf, thinksAloud } from './agent-prose';
import { isLeadIn, standsAlone } from './text';
import { opensOnPointer } from './salience';

/** Fewest and most words of a finding said of a place. */
const MIN_WORDS = 5;
const MAX_WORDS = 40;

/** Whether an agent's sentence says something of the code (a finding), not a step or a thought. */
function isFinding(s: Sentence): boolean {
  return s.role === 'assistant' && !s.code && !s.template && s.wc >= MIN_WORDS && s.wc <= MAX_WORDS && /[.!]["'”’)\]*_`]*$/u.test(s.text) && !INTENTION.test(s.text) && !LEANS_OR_PLANS.test(s.text) && !isLeadIn(s.text) && !thinksAloud(s) && standsAlone(s.text) && !opensOnPointer(s.text);
}

/** A sentence building on the one before ("Similarly, …", "Also …") or saying what to do ("I need
 * to modify …", "we should …"): no finding of what the code does. */
const LEANS_OR_PLANS = /^(?:similarly|likewise|also|additionally|and|or|then|otherwise)\b|\b(?:I|we) (?:need|have|want|must|should|will) (?:to )?\b|\bwe should\b/i;
/** Most words before the place's name: the sentence is about it (its subject), not an example. */
const SUBJECT_WORDS = 5;

/** Whether `name` is said within the first words of `text`. */
function namedEarly(text: string, name: string): boolean {
  const at = text.indexOf(name);
  return at >= 0 && text.slice(0, at).split(/\s+/).filter(Boolean).length < SUBJECT_WORDS;
}

/**
 * The places with what the agent said of each: its latest finding naming that place first (the
 * subject of the sentence) among `places`, without its narration ("Looking at the code, I see
 * that …"); a place it said nothing of keeps none. `except`: a text shown elsewhere (the cause).
 */
export function withSaid(places: readonly CodePlace[], sentences: readonly Sentence[], except = ''): CodePlace[] {
  const said = new Map<CodePlace, string>();
  for (let i = sentences.length - 1; i >= 0 && said.size < places.length; i--) {
    const s = sentences[i] as Sentence;
    if (!isFinding(s)) continue;
    const place = placeNamed(s.text, places);
    if (!place || said.has(place)) continue;
    const text = findingOf(s.text);
    if (!namedEarly(text, place.name)) continue;
    if (except && (except.includes(text) || text.includes(except))) continue;
    said.set(place, text);
  }
  return places.map((p) => (said.has(p) ? { ...p, said: said.get(p) } : p));
}
