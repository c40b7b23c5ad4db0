// Proper nouns of a fact candidate (extract-facts weighs them like numbers): the words of a text
// written with a capital where no sentence starts, marked by vocabulary id. Module-private marks,
// owned here and valid until the next text is marked.
import { isSpaceCode } from './text';
import { internWord, vocabSize } from './vocab';

const UPPER = /\p{Lu}/u;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/** Length of the character at `i` (2 for a surrogate pair). */
const charLength = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c < 0xdc00 && i + 1 < text.length ? 2 : 1;
};

// Marks of the capitalised words of the text being weighed, by vocabulary id: `capitalMark[id] ===
// capitalPass` (a typed array and a pass number rather than a Set of strings per candidate).
let capitalMark = new Int32Array(0);
let capitalPass = 0;

/**
 * Marks the proper nouns of a text: capitalised words that do not start it, i.e. a capital letter
 * after whitespace and the letters, digits, `_` and `-` after it (a word after a sentence end inside
 * the text is counted too: rare, and a slight over-weight at worst).
 */
export function markCapitalised(text: string): void {
  if (capitalMark.length < vocabSize()) capitalMark = new Int32Array(vocabSize() * 2);
  if (++capitalPass === 0x3fffffff) {
    capitalMark.fill(0);
    capitalPass = 1;
  }
  const n = text.length;
  for (let i = 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (!isSpaceCode(text.charCodeAt(i - 1))) continue;
    if (c < 0x80 ? c < 65 || c > 90 : !UPPER.test(text.slice(i, i + charLength(text, i)))) continue;
    let j = i + 1;
    let hyphen = false;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d < 0x80) {
        if (!((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 95 || d === 45)) break;
        if (d === 45) hyphen = true;
        j++;
      } else {
        const len = charLength(text, j);
        if (!LETTER_OR_NUMBER.test(text.slice(j, j + len))) break;
        j += len;
      }
    }
    // A word with a hyphen is no vocabulary word (the scanner splits at hyphens).
    if (!hyphen && !isVocative(text, i, j)) {
      // (Interned, not looked up: whether the table already held a word depended on what was
      // compacted before in the same process, so one block of 64 came out differently after
      // other conversations than alone.)
      const id = internWord(text.slice(i, j).toLowerCase());
      if (id >= capitalMark.length) {
        const grown = new Int32Array(vocabSize() * 2);
        grown.set(capitalMark);
        capitalMark = grown;
      }
      if (id >= 0) capitalMark[id] = capitalPass;
    }
    i = j - 1;
  }
}

/** A greeting or reaction that a name of the one addressed follows ("Hey Tim,", "Thanks, Dave!"). */
const GREETING = /^(?:hey|hi|hello|thanks|thank you|congrats|congratulations|sorry|wow|yeah|yes|oh|aw+|bye|dear|good (?:morning|evening|luck)),? $/i;

/**
 * Whether the capitalised word text[i, j) names whom the speaker addresses rather than what they
 * talk about: right after a greeting that starts the text ("Hey Tim, sorry I missed you."), or
 * after a comma and before "!" or "?" ("Good luck, Calvin!"). Two people chatting address each other
 * in most turns; weighed like a name, the address would rank greetings as facts.
 */
function isVocative(text: string, i: number, j: number): boolean {
  const after = text.charCodeAt(j);
  if (i <= 20 && (after === 44 || after === 33 || after === 46 || j === text.length) && GREETING.test(text.slice(0, i))) return true;
  return (after === 33 || after === 63) && text.charCodeAt(i - 2) === 44;
}

/** Whether the text last given to {@link markCapitalised} holds the word `id` capitalised. */
export function isCapitalised(id: number): boolean {
  return capitalMark[id] === capitalPass;
}
