// Clauses: the contiguous runs of a sentence that read as text on their own, for a fact that need
// not carry its whole sentence (ranking in extract-facts, the last room of the block in render).
import { contentWords, splitAfter, wordCount } from './text';

/** A clause as a fact of its own: without the comma or dash it ended on. */
export function trimClause(clause: string): string {
  return clause.replace(/[\s,;:–—-]+$/u, '');
}

/** `text` with its first character upper-cased when it is a lowercase letter that has a
 * one-character capital (so the length, and every offset, stays the same). */
export function capitaliseFirst(text: string): string {
  const first = text.charAt(0);
  const upper = first.toUpperCase();
  return upper !== first && upper.length === 1 && first.toLowerCase() === first ? upper + text.slice(1) : text;
}

/** Clauses of a sentence of at least five words each (the shortest run that reads as text), when
 * the sentence has more than one; each trimmed to stand alone (see {@link trimClause}). */
export function clausesOf(text: string): string[] {
  const parts = splitAfter(text, ',;:!?')
    .flatMap((p) => p.split(/\s+[-–—]\s+|\s+(?=\[)/))
    // Coordinated clauses ("I started surfing five years ago and it's been great") stand alone too.
    .flatMap((p) => p.split(CONJUNCTION))
    .map((p) => trimClause(p.trim()));
  if (parts.length < 2) return [];
  return parts.filter((p) => wordCount(p) >= 5 && contentWords(p).length >= 2 && balanced(p));
}

// Before "so" only when a comma or a subject says a clause follows ("… ago, so we moved"), not
// inside a phrase ("it's so heartwarming"); before the other joining words always.
const CONJUNCTION =
  /,?\s+(?=(?:and|but|because|which|while|although|though|since)\s)|,\s+(?=so\s)|\s+(?=so\s+(?:I|I['’]\w+|we|you|he|she|it|it['’]s|they|there|that|this|my|our|his|her|their)\s)/;

/** True when every bracket and parenthesis opened in `text` is closed in it, and none closes
 * unopened: a clause cut out of "[shares a photo: …]" must not leave half a bracket. */
function balanced(text: string): boolean {
  let square = 0;
  let round = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91) square++;
    else if (c === 93 && --square < 0) return false;
    else if (c === 40) round++;
    else if (c === 41 && --round < 0) return false;
  }
  return square === 0 && round === 0;
}
