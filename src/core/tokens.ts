// PROTOTYPE (weights to be fitted)
export type TokenizerFamily = 'o200k' | 'cl100k' | 'claude' | 'llama';

// Character classes.
const SP = 0, NL = 1, LLO = 2, LUP = 3, LACC = 4, DIG = 5, PUN = 6, REP = 7, CYR = 8, GRK = 9, HEB = 10,
  ARA = 11, IND = 12, THAI = 13, SEA = 14, HAN = 15, KANA = 16, HANG = 17, CJKP = 18, GPUN = 19, SYM = 20,
  EMO = 21, JOIN = 22, OTH = 23, SURR = 24;

// Run group of each class (letters of any case share the Latin run) and slots per group.
const LAT = LLO;
const GROUP = [SP, NL, LAT, LAT, LAT, DIG, PUN, REP, CYR, GRK, HEB, ARA, IND, THAI, SEA, HAN, KANA, HANG, CJKP, GPUN, SYM, EMO, JOIN, OTH];
const SLOTS = [3, 2, 12, 0, 0, 3, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2, 3, 2, 2];
const BASE: number[] = [];
let nSlots = 0;
for (const s of SLOTS) {
  BASE.push(nSlots);
  nSlots += s;
}
const ACC_SLOT = nSlots++;
const CAPS_SLOT = nSlots++;
export const FEATURE_COUNT = nSlots;

const T = new Uint8Array(0x10000).fill(OTH);
const set = (lo: number, hi: number, k: number): void => void T.fill(k, lo, hi + 1);
set(0x21, 0x7e, PUN);
set(0x30, 0x39, DIG);
set(0x41, 0x5a, LUP);
set(0x61, 0x7a, LLO);
set(0x09, 0x09, SP);
set(0x0b, 0x0c, SP);
set(0x20, 0x20, SP);
set(0x0a, 0x0a, NL);
set(0x0d, 0x0d, NL);
set(0x80, 0xbf, GPUN);
set(0xc0, 0x24f, LACC);
set(0xd7, 0xd7, GPUN);
set(0xf7, 0xf7, GPUN);
set(0x250, 0x36f, LACC);
set(0x370, 0x3ff, GRK);
set(0x400, 0x52f, CYR);
set(0x590, 0x5ff, HEB);
set(0x600, 0x77f, ARA);
set(0x8a0, 0x8ff, ARA);
set(0x900, 0xdff, IND);
set(0xe00, 0xeff, THAI);
set(0xf00, 0x109f, SEA);
set(0x1100, 0x11ff, HANG);
set(0x1780, 0x17ff, SEA);
set(0x1e00, 0x1eff, LACC);
set(0x1f00, 0x1fff, GRK);
set(0x2000, 0x206f, GPUN);
set(0x200b, 0x200f, JOIN);
set(0x2070, 0x2bff, SYM);
set(0x2e80, 0x2fff, HAN);
set(0x3000, 0x303f, CJKP);
set(0x3040, 0x30ff, KANA);
set(0x3130, 0x318f, HANG);
set(0x31f0, 0x31ff, KANA);
set(0x3200, 0x33ff, CJKP);
set(0x3400, 0x4dbf, HAN);
set(0x4e00, 0x9fff, HAN);
set(0xac00, 0xd7af, HANG);
set(0xd800, 0xdfff, SURR);
set(0xf900, 0xfaff, HAN);
set(0xfb1d, 0xfb4f, HEB);
set(0xfb50, 0xfdff, ARA);
set(0xfe00, 0xfe0f, JOIN);
set(0xfe30, 0xfe4f, CJKP);
set(0xfe70, 0xfefe, ARA);
set(0xff00, 0xffef, CJKP);
set(0xff66, 0xff9f, KANA);

/** @internal Counts of each feature slot in `text` (for the fitting script and tests). */
export function tokenFeatures(text: string, out = new Float64Array(FEATURE_COUNT)): Float64Array {
  let prevK = -1;
  let prevG = -1;
  let prevC = -1;
  let pos = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let k = T[c] ?? OTH;
    if (k === SURR) {
      const d = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c < 0xdc00 && d >= 0xdc00 && d <= 0xdfff) i++;
      k = EMO;
    } else if (k === PUN && c === prevC) k = REP;
    const g = GROUP[k] ?? OTH;
    if (g === prevG && !(k === LUP && prevK !== LUP)) pos++;
    else pos = 0;
    const s = SLOTS[g] ?? 1;
    out[(BASE[g] ?? 0) + (pos < s ? pos : s - 1)]! += 1;
    if (k === LACC) out[ACC_SLOT]! += 1;
    else if (k === LUP && prevK === LUP) out[CAPS_SLOT]! += 1;
    prevK = k;
    prevG = g;
    prevC = c;
  }
  return out;
}
const NAMES = ['sp', 'nl', 'lat', 'lup', 'lacc', 'dig', 'pun', 'rep', 'cyr', 'grk', 'heb', 'ara', 'ind', 'thai', 'sea', 'han', 'kana', 'hang', 'cjkp', 'gpun', 'sym', 'emo', 'join', 'oth'];
export const SLOT_NAMES: string[] = [];
SLOTS.forEach((s, g) => { for (let p = 0; p < s; p++) SLOT_NAMES.push(`${NAMES[g]}${p}`); });
SLOT_NAMES.push('acc', 'caps');
