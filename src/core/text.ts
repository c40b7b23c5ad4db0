// Text helpers for extraction and rendering: sentence splitting, word keys for ranking, and
// truncation that never cuts a word or a surrogate pair. Regex-only (no Intl.Segmenter on the hot
// path): compaction must stay within a few passes over the text, on mobile too.

/** True for a lone (unpaired) UTF-16 surrogate at index i. */
function isLoneSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = text.charCodeAt(i - 1);
    return !(prev >= 0xd800 && prev <= 0xdbff);
  }
  return false;
}

/** Removes unpaired surrogates: they are invalid in the JSON a provider receives, and a block
 * built from message text must never carry one even if the message did. */
export function dropLoneSurrogates(text: string): string {
  if (!/[\ud800-\udfff]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) if (!isLoneSurrogate(text, i)) out += text[i];
  return out;
}

/** Collapses whitespace runs (including newlines) to single spaces and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/**
 * The longest prefix of `text` of at most `maxChars` UTF-16 units that ends on a word boundary
 * (or between two CJK characters, which have no spaces), never inside a surrogate pair.
 * Adds `…` when it cut. Returns '' when not even one word fits.
 */
export function truncateAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '';
  let end = maxChars - 1; // room for the ellipsis
  // Never split a surrogate pair.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  let cut = -1;
  for (let i = end; i > 0; i--) {
    const ch = text[i] ?? '';
    const prev = text[i - 1] ?? '';
    if (/\s/.test(ch) || CJK.test(ch) || CJK.test(prev)) {
      cut = i;
      break;
    }
  }
  if (cut <= 0) return '';
  const head = text.slice(0, cut).replace(/[\s,;:–—-]+$/u, '');
  return head ? `${head}…` : '';
}

// Sentence ends: terminal punctuation followed by whitespace and something sentence-like, or CJK
// terminal punctuation (no space needed). Abbreviations and dotted names (e.g. `os.path`, `v1.2`)
// are not followed by whitespace, so they do not split.
const SENTENCE_END = /([.!?…]+["')\]]*)\s+(?=["'([]?[\p{Lu}\p{N}\p{Lo}])|([。！？]+)/gu;
const ABBREV = /\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|st|no|fig|approx|cf)\.$/i;

/** Splits text into sentences: lines first (chat text uses newlines as separators), then sentence
 * punctuation. Empty pieces are dropped; pieces are trimmed. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.includes('\n') ? text.split(/\n+/) : [text]) {
    const line = rawLine.trim();
    if (!line) continue;
    let start = 0;
    SENTENCE_END.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = SENTENCE_END.exec(line)) !== null) {
      const end = m.index + (m[1] ?? m[2] ?? '').length;
      const piece = line.slice(start, end).trim();
      if (m[1] && ABBREV.test(piece)) continue;
      if (piece) out.push(piece);
      start = m.index + m[0].length;
    }
    const rest = line.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}

/** A small English stopword list: words that carry no fact on their own. Written for ranking
 * (not a linguistic reference): function words, auxiliaries and chat filler. */
export const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
can could did do does doing done down during each even ever few for from further get got had has have having he her here hers
herself him himself his how i if in into is it its itself just let like me more most much my myself no nor not now of off on
once only or other our ours ourselves out over own really same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where which while who whom why will
with would you your yours yourself yourselves yes yeah oh ok okay hey hi hello wow thanks thank great good nice cool sure well
im ive id ill youre youve thats its dont doesnt didnt cant wont isnt arent wasnt one thing things lot bit way something anything
know think going want really still back make made see say said tell told feel feels felt sounds sound glad happy awesome amazing
yea yep nope ya lol haha hah totally definitely absolutely exactly kinda gonna wanna gotta super pretty stuff guess hope wish
hear heard appreciate appreciated totally true right love loved fun nope bet cheers congrats congratulations yay omg btw`.split(/\s+/),
);

/** Common English words that carry a little meaning but rarely the fact itself: feelings, praise,
 * time in general, everyday verbs and nouns. Ranking counts them at a fraction of their weight, so
 * "excited to see what the future holds" does not outrank "the shop opened in Boston". Written for
 * ranking, from general usage (not from any conversation). */
export const GENERIC_WORDS = new Set(
  `able actually ago almost already always amazing another anyone anything anyway around ask asked away awesome bad beautiful
best better big busy came care cause chance change chat check come comes coming course crazy day days deal different does done
easy else end enjoy enjoyed enjoying especially every everyone everything excited exciting experience experiences face fact fantastic
far feeling feelings find first forward found friend friends future gave give gives giving glad goal goals goes going gone good
great grow hard help helped helps hey hold holds home idea ideas important incredible inspiring inspired interesting journey keep
keeps kind last later least left less life little live long look looking looks lots made makes making many matter maybe mean means
meaning memories might mind moment moments month months morning much must need needs never new next night often old others part
passion people person place places plan plans point positive possible probably proud put quite rather ready reason recently remember
rest right sad saw seems seen sense share shared since small soon sort special start started step story sure surely take takes
taking talk talked talking thing think thought time times today together tough tried true try trying turn understand us use used
usually want wanted watch week weeks went whole wonderful work worked working world worth year years yesterday yet`.split(/\s+/),
);

// Word characters: ASCII letters and digits, and the letter blocks of other scripts (Latin-1 to
// Greek extended, Cyrillic …, CJK, Hangul, full-width letters); punctuation blocks are separators.
// Tested by char code in one scan (no regex split, no per-word regex): this runs over every
// removed sentence.
function isWordCode(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
  return (
    (c >= 0xc0 && c <= 0x1fff) ||
    (c >= 0x2c00 && c <= 0x2dff) ||
    (c >= 0x3040 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff10 && c <= 0xff19) ||
    (c >= 0xff21 && c <= 0xff3a) ||
    (c >= 0xff41 && c <= 0xff5a)
  );
}

/** Kana and CJK ideographs (not Hangul, which spaces its words). */
function isCjkCode(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

/** Pushes one word's keys: a plain word unless a stopword or one letter; a word holding CJK as its
 * CJK runs' character bigrams (a lone character alone) and its other runs as plain words. */
function pushWord(out: string[], w: string, hasCjk: boolean): void {
  if (!hasCjk) {
    if (w.length > 1 && !STOPWORDS.has(w)) out.push(w);
    return;
  }
  let i = 0;
  while (i < w.length) {
    const cjk = isCjkCode(w.charCodeAt(i));
    let j = i + 1;
    while (j < w.length && isCjkCode(w.charCodeAt(j)) === cjk) j++;
    if (cjk) {
      if (j - i === 1) out.push(w.slice(i, j));
      for (let k = i; k + 1 < j; k++) out.push(w.slice(k, k + 2));
    } else if (j - i > 1) {
      const run = w.slice(i, j);
      if (!STOPWORDS.has(run)) out.push(run);
    }
    i = j;
  }
}

// Interned words: a plain word (no apostrophe, no CJK) seen before is returned as the same string,
// found by a hash of its characters. The sentence pass then keeps one string per distinct word
// rather than one per occurrence (the sentence cache holds them, so each would otherwise survive
// into the old generation), and the stopword test is a flag read. Module-private; bounded (reset
// past INTERN_LIMIT words); output never depends on it, only speed and memory do.
const INTERN_LIMIT = 200_000;
let internBits = 12;
let internSlots = new Int32Array(1 << internBits).fill(-1);
let internWords: string[] = [];
let internHashes: number[] = [];
let internStop: boolean[] = [];

function internReset(): void {
  internBits = 12;
  internSlots = new Int32Array(1 << internBits).fill(-1);
  internWords = [];
  internHashes = [];
  internStop = [];
}

function internGrow(): void {
  internBits++;
  internSlots = new Int32Array(1 << internBits).fill(-1);
  const mask = (1 << internBits) - 1;
  for (let e = 0; e < internWords.length; e++) {
    let p = (internHashes[e] as number) & mask;
    while (internSlots[p] !== -1) p = (p + 1) & mask;
    internSlots[p] = e;
  }
}

/** The entry of `lower[start, end)` with hash `h`, added if new. */
function intern(lower: string, start: number, end: number, h: number): number {
  const mask = (1 << internBits) - 1;
  const len = end - start;
  let p = h & mask;
  for (;;) {
    const e = internSlots[p] as number;
    if (e === -1) break;
    if (internHashes[e] === h) {
      const w = internWords[e] as string;
      if (w.length === len) {
        let k = 0;
        while (k < len && w.charCodeAt(k) === lower.charCodeAt(start + k)) k++;
        if (k === len) return e;
      }
    }
    p = (p + 1) & mask;
  }
  if (internWords.length >= INTERN_LIMIT) {
    internReset();
    return intern(lower, start, end, h);
  }
  const w = lower.slice(start, end);
  const e = internWords.length;
  internWords.push(w);
  internHashes.push(h);
  internStop.push(STOPWORDS.has(w));
  internSlots[p] = e;
  if (internWords.length * 2 > internSlots.length) internGrow();
  return e;
}

/** 1 for the ASCII characters {@link isWordCode} accepts. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = isWordCode(c) ? 1 : 0;

/**
 * Ranking keys of a text: lowercased words (apostrophes dropped), stopwords and one-letter words
 * dropped. A CJK run (no spaces between words) yields its character bigrams, a tokenizer-free
 * stand-in for words that is the same on every platform, so ranking stays deterministic. This runs
 * over every removed sentence, so it is one scan of the lowercased text, not a regex walk per word.
 */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    let c = lower.charCodeAt(i);
    // Apostrophes are dropped, joining what surrounds them ("don't" → "dont").
    if (c === 39 || c === 0x2019 || !isWordCode(c)) {
      i++;
      continue;
    }
    const start = i;
    let h = 0;
    // Fast path: a run of ASCII letters, digits and underscores (most words), hashed as it goes.
    while (c < 0x80 && ASCII_WORD[c] === 1) {
      h = (Math.imul(h, 31) + c) | 0;
      if (++i >= n) break;
      c = lower.charCodeAt(i);
    }
    if (i >= n || (c < 0x80 && c !== 39)) {
      // The word ended on a separator: a plain word, interned.
      if (i - start > 1) {
        const e = intern(lower, start, i, h);
        if (!internStop[e]) out.push(internWords[e] as string);
      }
      continue;
    }
    let pieces: string | null = null; // the word so far, when an apostrophe interrupted it
    let from = start;
    let hasCjk = false;
    for (;;) {
      if (c === 39 || c === 0x2019) {
        pieces = (pieces ?? '') + lower.slice(from, i);
        from = i + 1;
      } else if (!isWordCode(c)) break;
      else if (!hasCjk && c >= 0x3040 && isCjkCode(c)) hasCjk = true;
      h = (Math.imul(h, 31) + c) | 0;
      if (++i >= n) break;
      c = lower.charCodeAt(i);
    }
    if (pieces === null && !hasCjk) {
      // A plain word: interned.
      if (i - start > 1) {
        const e = intern(lower, start, i, h);
        if (!internStop[e]) out.push(internWords[e] as string);
      }
      continue;
    }
    const word = pieces === null ? lower.slice(start, i) : pieces + lower.slice(from, i);
    if (word) pushWord(out, word, hasCjk);
  }
  return out;
}

/** JavaScript's `\s` (what `trim` removes) by char code. */
export function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/** Number of words, counting each CJK character as one. One scan of the trimmed range, nothing
 * allocated (it runs several times per removed sentence). */
export function wordCount(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isSpaceCode(text.charCodeAt(start))) start++;
  while (end > start && isSpaceCode(text.charCodeAt(end - 1))) end--;
  if (start === end) return 0;
  let n = 1;
  let prev = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10) {
      if (prev !== 32) n++;
    } else if (c >= 0x3040 && (c <= 0x30ff || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff))) n++;
    prev = c;
  }
  return n;
}

/** A normalised key for de-duplication: lowercased letters and digits only. */
export function dedupeKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Share of `a`'s distinct content words that also occur in `b`'s (0 when a has none). */
export function overlap(a: readonly string[], b: ReadonlySet<string>): number {
  const set = new Set(a);
  if (!set.size) return 0;
  let hit = 0;
  for (const w of set) if (b.has(w)) hit++;
  return hit / set.size;
}

/** Splits after each punctuation mark in `marks` that is followed by whitespace, keeping the mark
 * with the piece before it (what a lookbehind would do; iOS before 16.4 has no lookbehind). */
export function splitAfter(text: string, marks: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (marks.includes(text[i] as string) && /\s/.test(text[i + 1] as string)) {
      out.push(text.slice(start, i + 1));
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      start = j;
      i = j - 1;
    }
  }
  out.push(text.slice(start));
  return out.filter((p) => p.length > 0);
}
