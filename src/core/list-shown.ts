// How much of an answer's long list a key-facts line shows: block-format.ts writes it, record.ts
// (sentPart) reads it back for the panel. Pure, no imports (both sides use it).

/** Items of a list past LIST_LONG that a line shows; its label counts them all ("Assistant listed 8
 * of 12:"). Readers found twelve names of one list taking the room of the user's own facts. */
export const LIST_SHOWN = 8;
/** Lists of at most this many items are shown whole: "the last venue you listed" is asked of ten. */
const LIST_LONG = 10;

/** An answer's list heads as a line shows them: whole, or the first LIST_SHOWN of a long one. */
export function shownList(text: string): string {
  const items = text.split('; ');
  if (items.length <= LIST_LONG) return text;
  return items.slice(0, LIST_SHOWN).join('; ');
}

/** How many items an answer's list had when its line shows fewer ("8 of 12"); ''. */
export function listCount(text: string): string {
  const n = text.split('; ').length;
  return n > LIST_LONG ? ` ${LIST_SHOWN} of ${n}` : '';
}

