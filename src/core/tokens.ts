// Token-count estimation without shipping a tokenizer.
//
// One pass over the UTF-16 code units: every character is classified (script and shape), placed
// in a run of its group, and adds the weight of its *slot* (group, position in the run, plus a few
// extras) for the model's tokenizer family. All of that is compiled once into an automaton whose
// table packs each transition's next state and weight (in hundredths, summed as integers), so the
// loop is one class look-up and one table look-up per code unit: no branch, no allocation. The weights were fitted (bench/fit-token-weights.mjs)
// against the real tokenizers — o200k_base and cl100k_base (gpt-tokenizer), the Claude tokenizer
// (@anthropic-ai/tokenizer), Llama 2's and Mistral 7B's SentencePiece (llama-tokenizer-js,
// mistral-tokenizer-js) — on a multilingual train corpus, with generated text (code, JSON,
// Markdown, translated UI strings, ids, symbols) as a prior, and are scored by cross-validation
// that holds out whole files (and, stricter, whole sources) and on real text the fit never saw
// (`npm run bench:tokens`). They lean toward over-counting, because an under-count is what
// overflows a context window.
//
// Properties the conversation tracker relies on:
// - a character's slot depends only on the characters before it (and, for a space, on the next
//   one, with end-of-text treated as the cheapest case), and no weight is negative, so appending
//   text never lowers the estimate;
// - estimate(a + b) differs from estimate(a) + estimate(b) only around the seam (a word or run
//   continued across it) and by rounding, so per-message estimates can be summed.

import { tokenizerFamily } from './models';
import { WEIGHTS } from './token-weights';
import type { TokenizerFamily } from './tokenizer-family';

export type { TokenizerFamily } from './tokenizer-family';

// Run groups. A run is a maximal sequence of characters of one group; the slot of a character is
// its group's first slot plus its position in the run (capped), except where step() says otherwise.
// Slots: merged into the next token, before a digit, starts a run of 2+, the run's 2nd to 8th
// space, and every later one (a long run of spaces, as in a padded table, is a token or two).
const SPACE = 0;
const SPACE_LONG = 8; // run position from which a space takes the last slot
const NEWLINE = 1; // slots: after punctuation (BPE merges ".\n", "{\n"), after anything else, repeated
// slots: letter 1..16 of a word; BPE keeps common words whole, splits long ones. Letters 13-16 are
// priced apart only for o200k (long German compounds); the other families give them the 12th's weight.
const LATIN = 2;
const DIGIT = 3; // slots: first digit, inside a group of three, first of the next group (\d{1,3})
const PUNCT = 4; // ASCII punctuation: first of a run, then later ones (often merged: "();", "**")
// The same punctuation again ("----", "===="): Markdown rules and table padding. Slots: the second
// mark, the third to eighth, and every later one — the vocabularies hold long runs of - = * # as
// single tokens (64 dashes are 2-3 tokens), so a table's separator row costs little per mark.
const REPEAT = 5;
const REPEAT_LONG = 7; // run position from which a repeated mark takes the third slot
const CYRILLIC = 6;
const GREEK = 7;
const HEBREW = 8;
const ARABIC = 9;
const INDIC = 10; // Devanagari … Sinhala: mostly byte-level in older vocabularies
const THAI = 11; // Thai, Lao: no spaces between words, so runs are phrases
const SEASIAN = 12; // Tibetan, Myanmar, Khmer
const HAN = 13; // ideographs: about one token each, a bit more where a run starts
const KANA = 14;
const HANGUL = 15;
const CJK_PUNCT = 16; // 、。「」 and fullwidth forms
const GEN_PUNCT = 17; // ’ “ ” — … ·, Latin-1 signs, zero-width space and joiner-less marks
const SYMBOL = 18; // arrows, math, box drawing, dingbats (✅ ⏳ ❄): 3 UTF-8 bytes, 1-2 tokens
const EMOJI = 19; // any astral character outside the CJK planes: 4 bytes, 1-3 tokens
const ZWJ = 20; // the zero-width joiner inside emoji sequences (🧙‍♂️)
const VARIATION = 21; // U+FE0F and friends after emoji and symbols
const OTHER = 22; // scripts with no class of their own (Armenian, Georgian, Ethiopic, PUA …): fixed, conservative
// Character classes that share a group but carry an extra per-character or per-word weight.
const UPPER = 23; // A-Z: an upper-case letter after a lower-case one starts a new word (camelCase)
const LATIN1 = 24; // à é ü ß ñ: Western European accents
const LATIN_EXT = 25; // ą ł č ş ğ ơ ư: Central European, Turkish, Vietnamese base letters
const LATIN_VI = 26; // ạ ả ấ ầ ệ ộ ữ: Vietnamese stacked diacritics (Latin Extended Additional)
const CYRILLIC_X = 27; // і ї є ґ ў ђ љ: non-Russian Cyrillic letters; those languages tokenize worse
// A tab is priced apart from spaces because tokenizers treat it apart: SentencePiece spells each
// tab as a byte token; the BPE pre-tokenizers split the last whitespace character off a run to
// lead what follows, and a tab, unlike a space, rarely merges with it, so a tab indent is two
// tokens where a space indent is one ("\t\treadonly" is three tokens in cl100k, "    readonly" two).
const TAB = 28; // slots: first tab of a run, second, later ones
// An ideograph outside COMMON_HAN: the vocabularies give the few hundred most frequent ideographs
// a token of their own and spell the rest in two or three byte tokens, so a text in Traditional
// Chinese (or with rarer characters) costs a third more per character than everyday Simplified.
const HAN_RARE = 29;
// A no-break or other fixed-width space (U+00A0, U+2000–U+200A, U+202F, U+205F): French puts one
// inside « » and before : ; ! ?, and generated Markdown tables pad their columns with runs of them.
// It behaves as a space (a run of them is a token or two in every vocabulary, and Claude's NFKC
// turns each into a plain space) but the BPE vocabularies and SentencePiece spell a lone one as a
// token of its own instead of joining it to the next word.
const NBSP = 30;
// Invisible format characters (soft hyphen, zero-width space and non-joiner, direction marks):
// Persian's ZWNJ, Khmer's word-separating ZWSP. Unlike quotes and dashes, which the vocabularies
// keep as one token and often merge with their neighbours, these are byte tokens in most
// vocabularies (o200k, trained on more Persian, merges ZWNJ into words). A group of its own (its
// class and its group have the same number, as for TAB).
const FORMAT = 31;
// An ASCII apostrophe right after a letter (resolved in the loop): mostly a contraction ("it's",
// "don't", "I'm"), which o200k's pre-tokenizer keeps in its word (" don't" is one token) and the
// others split off ("'t" one token), sometimes a closing quote ('utf-8'). Its letters that follow
// take a slot of their own. A group of its own, APOS_GROUP.
const APOS = 32;
const APOS_GROUP = 33;
// 니 inside a Hangul word: nearly always the formal ending -(스)ㅂ니다 (합니다, 없습니다, 입니다),
// the commonest sentence end of formal Korean (documentation, UI strings, messages). The
// vocabularies hold it whole ("니다" and "습니다" are one token in Claude, "없습니다" one in
// o200k), so 니 and the syllable after it take a slot of their own instead of the run's.
// (A class number; group 33 is APOS_GROUP, a group that is no character's class.)
const HANGUL_NI = 33;
// Lower-case a, i, o: a Latin letter (group LATIN) whose state remembers it for the word's end.
const VOWEL = 34;
// A Western European accent that costs a word little or nothing (tokens of a word minus those of
// it without accents, Claude, gettext): õ −0.42, ê −0.33, ã −0.15, ò 0, à 0.05, ß 0.07, ú 0.17,
// è 0.17, ç 0.18, ù 0.25 (ì goes with its Italian siblings) against é 0.50, á 0.88, and 0.6–2 for
// Central European letters. In o200k no Latin-1 accent costs over 0.1: its accent slots price how
// much a language other than English splits its plain words, which the fit puts on the dear ones.
const LATIN1_CHEAP = 35;
const CHEAP_ACCENTS = 'ãõêçàèìòùúßÃÕÊÇÀÈÌÒÙÚ';
// A double quote and an underscore (group PUNCT, resolved in the loop): in a quoted snake_case
// identifier ("max_tokens", a JSON key) o200k keeps "_tokens" whole as " tokens", so the underscore
// takes a slot of its own there, not in unquoted code (priced so, Python was under-counted).
const QUOTE = 36;
const UNDERSCORE = 37;
// ã õ (Portuguese's "não", "função"; one word in thirteen): free in Claude (above), where the accent
// slots priced them at 3 tokens a word (Portuguese +10 to +16 %), and nearly so in cl100k (+20 %
// there). Mark slots of their own.
const LATIN1_PT = 38;
const PT_ACCENTS = 'ãõÃÕ';
// An ideograph of COMMON_HAN that Llama 2's vocabulary lacks (许, 证, 它, 购 …): spelled there in
// its three UTF-8 bytes, three tokens where a common one is one (see LLAMA_BYTE_HAN).
const HAN_BYTES = 39;
// A pictograph of the Basic Multilingual Plane (⏳ ☕ ❄ ✨ ⚡ ❌ ⭐: Miscellaneous Technical and
// Symbols, Dingbats, Miscellaneous Symbols and Arrows), where arrows, maths and box drawing are the
// rest of SYMBOL. Llama 2's vocabulary holds a few of them (✅ ✓ ★ ♥), and spells the others in
// their three UTF-8 bytes.
const SYMBOL_PICTO = 40;
// Table columns of the code units whose class depends on what comes before them; the automaton
// resolves them (the table below), so the loop is one table look-up per code unit:
// - surrogates: a high one is priced at once, as an emoji, or in plane 2 (HIGH_HAN) as a rare
//   ideograph; the low one after it adds nothing; a low one alone is priced as an emoji;
// - ASCII punctuation, one column per character: the same mark again is REPEAT (----, ====, **);
//   an apostrophe after an ASCII letter is APOS (it's, don't), after anything else PUNCT; a double
//   quote and an underscore are QUOTE and UNDERSCORE; the rest PUNCT.
const HIGH = 41;
const HIGH_HAN = 42;
const LOW = 43;
const PUNCT_COL = 44; // + the mark's index in PUNCT_CHARS
const PUNCT_CHARS = Array.from({ length: 0x5e }, (_, i) => i + 0x21).filter((c) => !(c >= 0x30 && c <= 0x39) && !(((c | 0x20) - 0x61) >>> 0 < 26));

const GROUP_OF = [...Array.from({ length: 23 }, (_, g) => g), LATIN, LATIN, LATIN, LATIN, CYRILLIC, TAB, HAN, SPACE, FORMAT, APOS_GROUP, HANGUL, LATIN, LATIN, PUNCT, PUNCT, LATIN, HAN, SYMBOL];
const GROUPS: readonly (readonly [string, number])[] = [
  ['space', 5], ['newline', 3], ['latin', 16], ['digit', 3], ['punct', 2], ['repeat', 3], ['cyrillic', 3],
  ['greek', 3], ['hebrew', 3], ['arabic', 3], ['indic', 3], ['thai', 3], ['seasian', 3], ['han', 2], ['kana', 2],
  ['hangul', 3], ['cjkpunct', 1], ['genpunct', 1], ['symbol', 2], ['emoji', 2], ['zwj', 1], ['variation', 1], ['other', 1],
  // Extra slots, added on top of the run slot. caps: an upper-case letter after another one
  // (ALL_CAPS splits more). Marked letters: the first one in a word (the word is likely split
  // around it) and every one.
  ['caps', 1], ['accent', 2], ['accentext', 2], ['accentvi', 2], ['cyrillicx', 2],
  // The tab group (TAB: its class and its group have the same number).
  ['tab', 3],
  // Extra slot of a rare ideograph (HAN_RARE), on top of its han slot.
  ['hanrare', 1],
  // Extra slot of a capital after a space: a German noun, a name (split more than lower-case words).
  ['capword', 1],
  // The format group (FORMAT: its class and its group have the same number).
  ['format', 1],
  // Extra slots of a no-break space (NBSP): alone or first of a run, and later in a run.
  ['nbsp', 2],
  // The apostrophe group (APOS_GROUP): the apostrophe after a letter, the first and the second
  // letter after it, the start of a word of three letters or more after it (an elision), and the
  // apostrophe's price as a closing quote when no letter follows it.
  ['apos', 5],
  // Slot of 니 inside a Hangul word (HANGUL_NI) and of the syllable after it (다 of 니다), in place
  // of their run slots: one weight, as they nearly always come together.
  ['hangulni', 1],
  // Extra slot where a word of five or more letters that ends in a, i or o ends ("parametro",
  // "funzioni", "cadena"): rare in English (no such word in the kit's English prose), the commonest
  // ending of Italian, Spanish and Portuguese words, which the vocabularies split where English
  // words of the same length are one token. Italian has few accents, so the accent slots, which
  // carry most of the "not English" price, missed it (Claude: −17 % on Italian text).
  ['vowelend', 1],
  // The cheap accents' mark slots (LATIN1_CHEAP, as accent's); an underscore in a quoted identifier.
  ['accentcheap', 2], ['snake', 1],
  // The mark slots of ã and õ (LATIN1_PT, as accent's).
  ['accentpt', 2],
  // Slot of a lone space before an emoji or a symbol, in place of space0 (see step()).
  ['spacebyte', 1],
  // Slot of a word's first letter right after something other than a space or a letter (a
  // newline, punctuation, a digit, the start of the text), in place of latin0 (see step()).
  ['latinbare', 1],
  // Extra slot of an ideograph that Llama 2 spells in bytes (HAN_BYTES), on top of its han slot.
  ['hanbytes', 1],
  // Extra slot of a pictograph (SYMBOL_PICTO), on top of its symbol slot.
  ['symbolpicto', 1],
];
/** @internal Slot names, for the fitting script. */
export const SLOT_NAMES: string[] = [];
const BASE: number[] = [];
for (const [name, n] of GROUPS) {
  BASE.push(SLOT_NAMES.length);
  for (let i = 0; i < n; i++) SLOT_NAMES.push(name + i);
}
/** @internal Number of weight slots. */
export const SLOT_COUNT = SLOT_NAMES.length;
const CAPS = BASE[23] ?? 0;
const HAN_RARE_SLOT = BASE[29] ?? 0;
const CAP_WORD = BASE[30] ?? 0;
const NBSP_SLOT = BASE[32] ?? 0;
const HANGUL_NI_SLOT = BASE[34] ?? 0;
const VOWEL_END = BASE[35] ?? 0;
const SNAKE = BASE[37] ?? 0;
const SPACE_BYTE = BASE[39] ?? 0;
const LATIN_BARE = BASE[40] ?? 0;
const HAN_BYTES_SLOT = BASE[41] ?? 0;
const SYMBOL_PICTO_SLOT = BASE[42] ?? 0;
const VOWEL_MIN = 5; // letters of a word whose final a / i / o takes VOWEL_END
const NI_POS = 3; // a Hangul run's position right after 니 inside a word (past its last slot)
// Per class, the first of its two mark slots (-1: none).
const MARK = new Int16Array(GROUP_OF.length).fill(-1);
[LATIN1, LATIN_EXT, LATIN_VI, CYRILLIC_X].forEach((k, i) => (MARK[k] = BASE[24 + i] ?? 0));
MARK[LATIN1_CHEAP] = BASE[36] ?? 0;
MARK[LATIN1_PT] = BASE[38] ?? 0;

// Code unit → class, built once (64 kB).
const CLASS = new Uint8Array(0x10000).fill(OTHER);
const RANGES: readonly (readonly [number, number, number])[] = [
  [0x30, 0x39, DIGIT], [0x41, 0x5a, UPPER], [0x61, 0x7a, LATIN],
  [0x09, 0x09, TAB], [0x0b, 0x0c, SPACE], [0x20, 0x20, SPACE], [0x0a, 0x0a, NEWLINE], [0x0d, 0x0d, NEWLINE],
  [0x80, 0xbf, GEN_PUNCT], [0xc0, 0xff, LATIN1], [0xd7, 0xd7, GEN_PUNCT], [0xf7, 0xf7, GEN_PUNCT],
  [0x100, 0x36f, LATIN_EXT], [0x370, 0x3ff, GREEK], [0x1f00, 0x1fff, GREEK],
  [0x400, 0x52f, CYRILLIC_X], [0x410, 0x44f, CYRILLIC], [0x401, 0x401, CYRILLIC], [0x451, 0x451, CYRILLIC],
  [0x590, 0x5ff, HEBREW], [0xfb1d, 0xfb4f, HEBREW],
  [0x600, 0x77f, ARABIC], [0x8a0, 0x8ff, ARABIC], [0xfb50, 0xfdff, ARABIC], [0xfe70, 0xfefe, ARABIC],
  [0x900, 0xdff, INDIC], [0xe00, 0xeff, THAI], [0xf00, 0x109f, SEASIAN], [0x1780, 0x17ff, SEASIAN],
  [0x1e00, 0x1eff, LATIN_VI], [0x2000, 0x206f, GEN_PUNCT], [0x200d, 0x200d, ZWJ], [0x2070, 0x2bff, SYMBOL],
  [0xa0, 0xa0, NBSP], [0x2000, 0x200a, NBSP], [0x202f, 0x202f, NBSP], [0x205f, 0x205f, NBSP],
  [0xad, 0xad, FORMAT], [0x200b, 0x200c, FORMAT], [0x200e, 0x200f, FORMAT], [0x202a, 0x202e, FORMAT], [0x2060, 0x206f, FORMAT],
  [0x1100, 0x11ff, HANGUL], [0x3130, 0x318f, HANGUL], [0xac00, 0xd7af, HANGUL], [0xb2c8, 0xb2c8, HANGUL_NI],
  [0x2e80, 0x2fff, HAN], [0x3400, 0x4dbf, HAN], [0x4e00, 0x9fff, HAN], [0xf900, 0xfaff, HAN],
  [0x3000, 0x303f, CJK_PUNCT], [0x3200, 0x33ff, CJK_PUNCT], [0xfe30, 0xfe4f, CJK_PUNCT], [0xff00, 0xffef, CJK_PUNCT],
  [0x3040, 0x30ff, KANA], [0x31f0, 0x31ff, KANA], [0xff66, 0xff9f, KANA],
  [0x2300, 0x23ff, SYMBOL_PICTO], [0x2600, 0x27bf, SYMBOL_PICTO], [0x2b00, 0x2bff, SYMBOL_PICTO],
  [0xfe00, 0xfe0f, VARIATION], [0xd800, 0xdbff, HIGH], [0xd840, 0xd87f, HIGH_HAN], [0xdc00, 0xdfff, LOW],
  [0x3400, 0x4dbf, HAN_RARE], [0x4e00, 0x9fff, HAN_RARE], [0xf900, 0xfaff, HAN_RARE],
];
for (const [lo, hi, k] of RANGES) CLASS.fill(k, lo, hi + 1);
PUNCT_CHARS.forEach((c, i) => (CLASS[c] = PUNCT_COL + i));
for (const c of 'aio') CLASS[c.charCodeAt(0)] = VOWEL;
for (const c of CHEAP_ACCENTS) CLASS[c.charCodeAt(0)] = LATIN1_CHEAP;
for (const c of PT_ACCENTS) CLASS[c.charCodeAt(0)] = LATIN1_PT;
// The ideographs that are a single token in cl100k_base or the Claude tokenizer (written by
// bench/common-han.mjs): 94 % of the ideographs in everyday Simplified Chinese, about 70 % in
// Traditional. The BPE vocabularies' own frequency ranking, so it carries over to Japanese kanji.
const COMMON_HAN =
  '一万三上下不与专且业东两个中串临为主么义之乐乘也习书买了事二于云互五些交产享京人' +
  '亿什仅今介从仓他付代令以们件价任份企优会传似但位体何余作你使例供依価保信修個倍候' +
  '値值假做停储像元充先光克入全公共关兴其具典内円册再写决况准减几出击分切划列则初利' +
  '别到制前剧割力功加务动助動包化北匹区十午半华单南博占卡印即历原去县参及友双反发取' +
  '受变口古句只可台右号司各合吉同名后向否含听启告员周命和品哈响商問器四回因团围国图' +
  '土在地场址均坐块型城域基報場填境增声处备変复外多大天太失头夹女好如始子字存学宁它' +
  '安宋完定实実审客害家容密对导対射将小少尔就尾局层屏展属山岁峰川州工左差己已市布带' +
  '常平年并广庆序库应店度建开异式引张弹归当录形影径待很後得微德心必志态思性总息您情' +
  '想意感戏成我或截户房所手才打执扩批找承技把投报拉拟择括持指按损换据掉排接控推描提' +
  '換搜播支收改放政效教数整數文料断新方族旗无日时昌明易星映是显時普景曲更替最月有服' +
  '期木未本术机权束条来板构析林果查标栏树校样核根格框案档检楼概標模次款止正此步武歳' +
  '段母每比民気水永求江池汽没河治法波注活流测海消深清游湖源滑满滤火点為热無然照爬父' +
  '片版牌物特状率王环现現球理生用由申电男画界略番発登白百的监盘目直相省看県真着知矩' +
  '短石码确示社神票离私种科秒积称移程稍税稿空突窗立站章端笑符第等答策签简算管箱米类' +
  '精系素索結線红约级线练组细终经结绘给络统继续维编缩网罪置美群老考者而联聚股育能自' +
  '至致色节花若英范获菜藏行表被装西要見见规视览角解言計記設話読计订认让训议记许论设' +
  '访证评识词试话询该详语误说请读课调象資负责败账货质购费资起超足距路跳身輸车转轮软' +
  '轴载较辑输边达过运近返还这进连迭述追退送选递通速造連遍道那邮部都配采释里重量金针' +
  '钟钮银链销错键长開間関门闭问间闻队防阳阵际陆限院除随隔雅集零雷需青非面音页项顺须' +
  '预频题颜额飞首马验高黑默齒龙';
for (let i = 0; i < COMMON_HAN.length; i++) CLASS[COMMON_HAN.charCodeAt(i)] = HAN;
// Which of COMMON_HAN's ideographs Llama 2's 32k vocabulary lacks (written by bench/common-han.mjs):
// one bit per character, in COMMON_HAN's order, six to a base64 digit. 272 of the 774, a tenth of
// everyday Chinese text; the other vocabularies hold them all.
const LLAMA_BYTE_HAN = 'AEIQFEzRAdGhj1TAIzHCxAQG+AQEIgDswAOxLACwCFMgxwIIgY4AQxIw3dkZHgBCKiA0UYyfiCACAIn5EFQIwAagz4GjnEYN1VIGDCALg62nKz9ja3AgnQihfB5OmB8OV';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < COMMON_HAN.length; i++) if ((B64.indexOf(LLAMA_BYTE_HAN[Math.floor(i / 6)] ?? 'A') >> i % 6) & 1) CLASS[COMMON_HAN.charCodeAt(i)] = HAN_BYTES;

// The automaton. A state is all the next character's slots depend on: the group of the current
// run, the position in it (capped at the group's last slot; for digits, the position modulo 3),
// whether the word already has a marked letter, whether the last letter was upper-case and whether
// it was a lower-case a, i or o, and whether it follows a double quote or is in the identifier
// after one; and, for the columns resolved here rather than in the loop, the ASCII mark just read
// (is the next one a repeat?), whether the last code unit was an ASCII letter (is an apostrophe a
// contraction?) or a high surrogate (is a low one its pair?). A lone space waits in a state of its
// own, because its slot depends on what follows. Built once from the start state by stepping every
// column (about 630 states); the loop then does one table look-up per code unit.
interface Core {
  g: number;
  pos: number;
  marked: boolean;
  upper: boolean;
  vowel: boolean;
  ident: number; // 1 right after a double quote, 2 in the letters, digits and underscores after one
}
interface State extends Core {
  mark: number; // the ASCII mark just read (0: none)
  letter: boolean; // the last code unit was an ASCII letter
  high: boolean; // the last code unit was a high surrogate
}
const NC = PUNCT_COL + PUNCT_CHARS.length; // row width: every column
const STATES: State[] = [];
const IDS = new Map<number, number>();
/** The id of the state with `core`'s fields and this memory (added when new). Its fields in one
 * number as the key (g + 1 < 64, pos < 16, ident < 4, mark < 128). */
function stateId(core: Core, mark: number, letter: boolean, high: boolean): number {
  const { g, pos, marked, upper, vowel, ident } = core;
  const key = (g + 1) | (pos << 6) | (+marked << 10) | (+upper << 11) | (+vowel << 12) | (ident << 13) | (mark << 15) | (+letter << 22) | (+high << 23);
  let id = IDS.get(key);
  if (id === undefined) IDS.set(key, (id = STATES.push({ g, pos, marked, upper, vowel, ident, mark, letter, high }) - 1));
  return id;
}

/** The slots a character of class `k` adds after state `s`, and the state after it. */
function step(s: Core, k: number): [Core, number[]] {
  const g = GROUP_OF[k] ?? OTHER;
  const sp = BASE[SPACE] ?? 0;
  const slots: number[] = [];
  // A no-break space's extra slot: alone or first of a run, or later in one.
  const nbsp = k === NBSP ? [NBSP_SLOT + (s.g === SPACE ? 1 : 0)] : [];
  // An apostrophe after a letter that no letter follows was a closing quote ('utf-8'), priced as
  // one now that this is known (never at the end of the text: appending must not lower the count).
  const apos = BASE[APOS_GROUP] ?? 0;
  // A word that ends in a, i or o ends here (priced now that it is known, never at the end of the
  // text). The slots a character adds for what it ends, whatever it starts.
  const ended = s.vowel && g !== LATIN && s.pos >= VOWEL_MIN - 1 ? [VOWEL_END] : [];
  if (s.g === APOS_GROUP && s.pos === 0 && g !== LATIN) ended.push(apos + 4);
  if (s.g === SPACE && s.pos === 0) {
    // The waiting lone space: a second one makes a run (one token, then little more); otherwise
    // it joins the next token (" the", " (", " \n") unless that is a digit.
    if (g === SPACE) return [{ ...s, pos: 1 }, [sp + 2, sp + 3, ...nbsp]];
    // Before an emoji or a symbol, a slot of its own: SentencePiece spells most of them in bytes,
    // which no "▁" merges with, so the space is a token of its own there (" 📅" is five tokens in
    // Llama 2, "📅" four); the BPE vocabularies and Claude keep space0's weight (tied).
    slots.push(k === EMOJI || g === SYMBOL ? SPACE_BYTE : sp + (k === DIGIT ? 1 : 0));
  }
  if (g === SPACE) {
    if (s.g !== SPACE) return [{ g, pos: 0, marked: false, upper: false, vowel: false, ident: 0 }, [...ended, ...nbsp]];
    return [{ ...s, pos: Math.min(s.pos + 1, SPACE_LONG) }, [sp + (s.pos + 1 < SPACE_LONG ? 3 : 4), ...nbsp]];
  }
  const upper = k === UPPER;
  slots.push(...ended);
  if (k === APOS) return [{ g: APOS_GROUP, pos: 0, marked: s.marked, upper: false, vowel: false, ident: 0 }, [...slots, apos]];
  if (s.g === APOS_GROUP && g === LATIN) {
    const m = MARK[k] ?? -1;
    const marks = m >= 0 ? [m, m + 1] : [];
    // A contraction's letters ("t" of "don't", "ll" of "we'll"): part of the word's token in o200k.
    if (s.pos < 2) return [{ g: APOS_GROUP, pos: s.pos + 1, marked: s.marked || m >= 0, upper, vowel: false, ident: 0 }, [apos + 1 + s.pos, ...marks]];
    // A third letter: an elided word ("l'oggetto", "dell'utente"), a word of its own after all —
    // the slot that catches up its start, then the word goes on as any other.
    return [{ g: LATIN, pos: 2, marked: s.marked || m >= 0, upper, vowel: k === VOWEL, ident: 0 }, [apos + 3, (BASE[LATIN] ?? 0) + 2, ...marks]];
  }
  const cont = s.g === g && !(upper && !s.upper); // an upper-case letter after a lower-case one: camelCase
  const last = (GROUPS[g]?.[1] ?? 1) - 1;
  let pos = cont ? Math.min(s.pos + 1, g === REPEAT ? REPEAT_LONG : last) : 0;
  let slot = g === REPEAT ? (pos === 0 ? 0 : pos < REPEAT_LONG ? 1 : 2) : pos;
  if (g === NEWLINE) slot = cont ? 2 : s.g === PUNCT || s.g === REPEAT ? 0 : 1; // ".\n" and "{\n" merge
  else if (g === DIGIT) {
    pos = !cont ? 0 : s.pos === 3 ? 1 : s.pos + 1; // 0, then 1 2 3 1 2 3 …: 3 starts a new group of three
    slot = pos === 0 ? 0 : pos === 3 ? 2 : 1;
  }
  const ni = k === HANGUL_NI && cont;
  if (ni) pos = NI_POS;
  // A word that no space leads ("\nword", "(word", "#Tag"): SentencePiece's vocabulary is mostly
  // of "▁word" pieces, so the bare word splits more (+0.3 tokens a word in Llama 2 and Mistral).
  const bare = g === LATIN && !cont && s.g >= 0 && s.g !== SPACE && s.g !== LATIN;
  slots.push(ni || (g === HANGUL && cont && s.pos === NI_POS) ? HANGUL_NI_SLOT : bare ? LATIN_BARE : (BASE[g] ?? 0) + slot);
  const m = MARK[k] ?? -1;
  if (m >= 0) slots.push(...(cont && s.marked ? [m + 1] : [m, m + 1]));
  if (upper && cont && s.upper) slots.push(CAPS);
  if (k === HAN_RARE) slots.push(HAN_RARE_SLOT);
  if (k === HAN_BYTES) slots.push(HAN_BYTES_SLOT);
  if (k === SYMBOL_PICTO) slots.push(SYMBOL_PICTO_SLOT);
  if (upper && s.g === SPACE) slots.push(CAP_WORD);
  return [{ g, pos: g === NEWLINE ? slot : pos, marked: m >= 0 || (cont && s.marked), upper, vowel: k === VOWEL, ident: 0 }, slots];
}

/** step(), plus the quoted identifier a character starts, continues or ends. */
function stepIdent(s: Core, k: number): [Core, number[]] {
  const [next, slots] = step(s, k);
  const inIdent = s.ident > 0 && (GROUP_OF[k] === LATIN || k === DIGIT || k === UNDERSCORE);
  const ident = k === QUOTE ? 1 : inIdent ? 2 : 0;
  const punct0 = BASE[PUNCT] ?? 0;
  return [{ ...next, ident }, k === UNDERSCORE && s.ident === 2 ? slots.map((q) => (q === punct0 ? SNAKE : q)) : slots];
}

// The table: every column read after every state. A column's class is resolved by what the state
// remembers, then stepped (stepIdent); the step depends only on the state's core fields and the
// class, so it is computed once per pair and shared (building the table stays cheap at startup).
const NEXT: number[] = [];
const ADDS: number[][] = [];
// In a function, not at the top level, so V8 optimises the loops (module code runs interpreted).
(function build(): void {
  const steps = new Map<number, [Core, number[]]>();
  const rows = new Map<string, [number[], number[][], number]>();
  /** Column `k` read after `s` (whose core fields are the `core`-th seen): the next state, the slots. */
  const column = (s: State, core: number, k: number): [number, number[]] => {
    if (k === LOW && s.high) return [stateId(s, 0, false, false), []]; // the low half of a pair
    let cls = k;
    let mark = 0;
    if (k === LOW) cls = EMOJI; // a lone low surrogate
    else if (k === HIGH || k === HIGH_HAN) cls = k === HIGH_HAN ? HAN_RARE : EMOJI;
    else if (k >= PUNCT_COL) {
      mark = PUNCT_CHARS[k - PUNCT_COL] ?? 0;
      cls = mark === s.mark ? REPEAT : mark === 0x27 && s.letter ? APOS : mark === 0x22 ? QUOTE : mark === 0x5f ? UNDERSCORE : PUNCT;
    }
    let stepped = steps.get(core * NC + cls);
    if (!stepped) steps.set(core * NC + cls, (stepped = stepIdent(s, cls)));
    return [stateId(stepped[0], mark, k === LATIN || k === VOWEL || k === UPPER, k === HIGH || k === HIGH_HAN), stepped[1]];
  };
  stateId({ g: -1, pos: 0, marked: false, upper: false, vowel: false, ident: 0 }, 0, false, false);
  for (let id = 0; id < STATES.length; id++) {
    const s = STATES[id]!;
    const key = `${s.g} ${s.pos} ${s.marked} ${s.upper} ${s.vowel} ${s.ident}`;
    // The row of the state with these core fields and nothing remembered, computed once; a state
    // that remembers something differs from it only in the columns that read it.
    let row = rows.get(key);
    if (!row) {
      const bare = { ...s, mark: 0, letter: false, high: false };
      const next: number[] = [];
      const adds: number[][] = [];
      for (let k = 0; k < NC; k++) {
        const [n, slots] = column(bare, rows.size, k);
        next.push(n);
        adds.push(slots);
      }
      rows.set(key, (row = [next, adds, rows.size]));
    }
    const at = NEXT.length;
    NEXT.push(...row[0]);
    ADDS.push(...row[1]);
    for (const k of [LOW, s.mark ? PUNCT_COL + PUNCT_CHARS.indexOf(s.mark) : -1, s.letter ? PUNCT_COL + PUNCT_CHARS.indexOf(0x27) : -1]) {
      if (k < 0 || (k === LOW && !s.high)) continue;
      [NEXT[at + k], ADDS[at + k]] = column(s, row[2], k);
    }
  }
})();
// At the end of the text a waiting lone space is priced as joining a token (the cheapest case,
// so appending text never lowers the estimate).
const END_ADDS = STATES.map((s) => (s.g === SPACE && s.pos === 0 ? [BASE[SPACE] ?? 0] : []));

// A transition packed in one integer: the next state's row (state × NC, so the loop adds the column
// to it) above, the weight in hundredths of a token below — one load per code unit.
const WEIGHT_BITS = 11;
const WEIGHT_MASK = (1 << WEIGHT_BITS) - 1;
if (STATES.length * NC * (WEIGHT_MASK + 1) > 2 ** 31) throw new Error('the token table outgrew its packing');

/**
 * The one pass: the packed transitions' weights summed over `text`, plus the final state's (`end`),
 * in hundredths.
 *
 * Everything the loop reads is a `const` of this closure: bundlers turn module-level constants
 * into `var`s, and V8 then re-checks the tables on every character (a fifth slower).
 */
const scan = ((): ((text: string, table: Int32Array, end: Int32Array) => number) => {
  const [classes, bits, mask, nc] = [CLASS, WEIGHT_BITS, WEIGHT_MASK, NC];
  return (text, table, end) => {
    let row = 0;
    let sum = 0;
    for (let i = 0; i < text.length; i++) {
      const x = table[row + classes[text.charCodeAt(i)]!]!;
      sum += x & mask;
      row = x >>> bits;
    }
    return sum + end[row / nc]!;
  };
})();

/** @internal Adds to `counts` how many times `text` adds each slot (fitting script, tests): the
 * same walk as scan()'s, counting the slots of each transition instead of summing weights. */
export function countSlots(text: string, counts: Float64Array): void {
  let row = 0;
  for (let i = 0; i < text.length; i++) {
    const t = row + CLASS[text.charCodeAt(i)]!;
    for (const q of ADDS[t]!) counts[q]! += 1;
    row = (NEXT[t] ?? 0) * NC;
  }
  for (const q of END_ADDS[row / NC]!) counts[q]! += 1;
}

export { tokenizerFamily };

/** Per family, built on first use: every transition packed (next row, weight in hundredths of a
 * token: the fitted weights have two decimals, so sums are exact integers), and every final
 * state's weight. */
const TABLES: Partial<Record<TokenizerFamily, [Int32Array, Int32Array]>> = {};
function tables(family: TokenizerFamily): [Int32Array, Int32Array] {
  // (Built once: estimateTokens runs per message and per line of a block, on short texts too.)
  const built = TABLES[family];
  if (built) return built;
  const w = WEIGHTS[family].map((x) => Math.round(100 * x));
  const sum = (slots: number[]): number => slots.reduce((a, q) => a + (w[q] ?? 0), 0);
  return (TABLES[family] = [
    Int32Array.from(ADDS, (slots, t) => {
      const weight = sum(slots);
      // Never met with the fitted weights (at most a few tokens per code unit, never negative).
      if (weight < 0 || weight > WEIGHT_MASK) throw new Error(`a token weight of ${weight / 100} cannot be packed`);
      return (NEXT[t]! * NC * (WEIGHT_MASK + 1)) | weight;
    }),
    Int32Array.from(END_ADDS, sum),
  ]);
}

// The last model's family: estimateTokens is called per message with the same model, and the
// family is found by regular expressions.
let lastModel: string | undefined;
let lastFamily: TokenizerFamily = tokenizerFamily(undefined);

/**
 * Estimated token count of `text` for `model` (see tokenizerFamily): 0 for the empty string, at
 * least 1 for any other (a lone space is a token too).
 */
export function estimateTokens(text: string, model?: string): number {
  if (!text) return 0;
  if (model !== lastModel) {
    lastFamily = tokenizerFamily(model);
    lastModel = model;
  }
  const [tw, end] = tables(lastFamily);
  const hundredths = scan(text, tw, end);
  return Math.max(1, Math.ceil(hundredths / 100));
}
