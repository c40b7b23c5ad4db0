// Code punctuation in a line of prose, its links counted as the word "link" (links are prose
// markup, not code punctuation): what `line.replace(LINKS, 'link')` leaves, with LINKS
// /!?\[\[[^\]\n]*\]\]|\[[^\]\n]*\]\([^)\n]*\)/g, read in one walk with no new string. The sentence
// pass asks it of every line of every message it reads (extract-sentences proseCodeLike).

const BANG = 33;
const OPEN = 91;
const CLOSE = 93;
const PAREN_OPEN = 40;
const PAREN_CLOSE = 41;
const NEWLINE = 10;

/** The first index from `from` holding `stop` or a newline (-1 when none). */
function stopAt(line: string, from: number, stop: number): number {
  for (let k = from; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === stop || c === NEWLINE) return k;
  }
  return -1;
}

/** End of `[[…]]` whose text starts at `from` (-1 when it does not close on this line). */
function wikilinkEnd(line: string, from: number): number {
  const k = stopAt(line, from, CLOSE);
  return k >= 0 && line.charCodeAt(k) === CLOSE && line.charCodeAt(k + 1) === CLOSE ? k + 2 : -1;
}

/** End (exclusive) of the link LINKS matches at `i`, -1 when none starts there: `![[…]]` or `[[…]]`
 * first, else `[…](…)`. (Each part stops at the first closing bracket or newline: the pattern's
 * character classes leave it nothing to backtrack to.) */
function linkEnd(line: string, i: number): number {
  const c = line.charCodeAt(i);
  if (c === BANG) return line.charCodeAt(i + 1) === OPEN && line.charCodeAt(i + 2) === OPEN ? wikilinkEnd(line, i + 3) : -1;
  if (c !== OPEN) return -1;
  if (line.charCodeAt(i + 1) === OPEN) {
    const end = wikilinkEnd(line, i + 2);
    if (end >= 0) return end;
  }
  const k = stopAt(line, i + 1, CLOSE);
  if (k < 0 || line.charCodeAt(k) !== CLOSE || line.charCodeAt(k + 1) !== PAREN_OPEN) return -1;
  const m = stopAt(line, k + 2, PAREN_CLOSE);
  return m >= 0 && line.charCodeAt(m) === PAREN_CLOSE ? m + 1 : -1;
}

/** Whether the line, its links put as "link", is at least `minLength` long and more than `share`
 * of it is code punctuation (`symbols`: 1 per ASCII character counted). */
export function denseInSymbols(line: string, symbols: Uint8Array, minLength: number, share: number): boolean {
  const links = line.includes('[');
  let length = 0;
  let sym = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    // (A link starts on "[" or "!".)
    if (links && (c === OPEN || c === BANG)) {
      const end = linkEnd(line, i);
      if (end >= 0) {
        length += 4;
        i = end;
        continue;
      }
    }
    if (c < 128) sym += symbols[c] as number;
    length++;
    i++;
  }
  return length >= minLength && sym / length > share;
}
