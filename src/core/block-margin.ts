// The share of a block's budget held back for the token estimator's error: the plugin ships no
// tokenizer, so the estimate is all there is, and how far it can be off depends on the text and on
// the tokenizer that counts it. Each line of the block is of one kind (English prose, accented
// Latin, another script, CJK, emoji, code, a table row padded with spaces), each kind has the
// estimator's measured worst under-count for each tokenizer family, and the margin is what the
// block's own mix of kinds needs by the family of the conversation's model: a block of German is
// held back more than one of English, a block for Claude (whose count the estimator under-shoots
// more on CJK and emoji) more than one for GPT-4o.
import type { CompactionRecord } from './record';
import { tokenizerFamily } from './models';
import { estimateTokens } from './tokens';
import type { TokenizerFamily } from './tokenizer-family';

/** Share of the budget held back for text the estimator is less sure of than English prose
 * (code and markup, and what has no kind of its own). */
export const DEFAULT_MARGIN = 0.1;
/** The margin for plain English prose counted by o200k, the estimator's best-known text: on the
 * retention kit's dialogue blocks it ran 1 % under to 3 % over o200k, on its agent blocks at most
 * 3 % under, and a block averages over hundreds of words; the wide margin left a tenth of the room
 * unused there. (Other families: {@link UNDER_BY_FAMILY}'s prose.) */
export const PROSE_MARGIN = 0.05;

export type TextKind = 'prose' | 'code' | 'path' | 'latin' | 'latinext' | 'cyrillic' | 'script' | 'cjk' | 'emoji' | 'table';

/** The estimator's worst under-count (1 − estimate / real count) per kind of line, over a block
 * of such lines, counted by o200k: the worst of o200k on generated blocks
 * (test/core/block-margin.test.ts) and of o200k, Claude and cl100k on real text (npm run
 * bench:tokens), rounded up. It also ranks the kinds: a line is of the hardest kind it holds. */
export const UNDER: Readonly<Record<TextKind, number>> = {
  prose: PROSE_MARGIN,
  code: DEFAULT_MARGIN,
  path: 0.15,
  latin: 0.12,
  latinext: 0.3,
  cyrillic: 0.2,
  script: 0.3,
  cjk: 0.12,
  emoji: 0.15,
  table: 0.2,
};

/** How far the estimate of one family may run under its own tokenizer's count. */
export interface FamilyMargins {
  /** Worst under-count per kind of line, over a block of such lines. */
  under: Readonly<Record<TextKind, number>>;
  /** English prose's worst under-count in a block of other text: the prose figure is sized for a
   * block of a line or two, and over ten lines or more prose runs closer (o200k: 7 % on three short
   * generated lines, 2 % over ten; the kit's dialogue blocks: 3 %). A block of English with a path
   * or a name in it stays on the prose margin; one with more hard text takes its share. */
  proseInMix: number;
  /** Tokens held back in every block, English prose's too: a family whose count runs a few
   * tokens past the estimate on a block of a line or two (short generated sentences, a tag) that
   * a share of a small budget does not cover, and a large budget does not feel. */
  slack: number;
}

/**
 * The figures per tokenizer family, each measured against that family's own tokenizer (o200k_base,
 * cl100k_base, @anthropic-ai/tokenizer, the Llama 2 and Mistral 7B SentencePiece vocabularies) by
 * `npm run bench:margins`: o200k's are {@link UNDER}; for the others each kind's figure is the
 * narrowest that leaves no block short on some 37,000 calibration blocks of generated text (seeds other
 * than the test's), never under the kind's floor — its worst under-count on blocks of ten
 * generated sentences and on real text (`npm run bench:tokens`) — and English prose's never under
 * o200k's. Claude's count runs further past the estimate on CJK and emoji than o200k's, cl100k's
 * on Czech and Polish; all four much less than o200k's on other scripts (Greek, Arabic, Hindi …),
 * and Llama's and Mistral's on Cyrillic, so those are held back less. (cl100k is also the family of
 * a model no pattern knows: models.ts.)
 */
export const UNDER_BY_FAMILY: Readonly<Record<TokenizerFamily, FamilyMargins>> = {
  o200k: { under: UNDER, proseInMix: 0.03, slack: 0 },
  claude: { under: { prose: 0.08, code: 0.12, path: 0.1, latin: 0.13, latinext: 0.25, cyrillic: 0.13, script: 0.11, cjk: 0.16, emoji: 0.17, table: 0.11 }, proseInMix: 0.03, slack: 2 },
  cl100k: { under: { prose: 0.06, code: 0.16, path: 0.07, latin: 0.15, latinext: 0.33, cyrillic: 0.15, script: 0.13, cjk: 0.15, emoji: 0.1, table: 0.07 }, proseInMix: 0.08, slack: 4 },
  llama: { under: { prose: 0.05, code: 0.14, path: 0.08, latin: 0.11, latinext: 0.28, cyrillic: 0.04, script: 0.13, cjk: 0.12, emoji: 0.15, table: 0.08 }, proseInMix: 0.03, slack: 4 },
  mistral: { under: { prose: 0.05, code: 0.14, path: 0.09, latin: 0.1, latinext: 0.26, cyrillic: 0.08, script: 0.23, cjk: 0.1, emoji: 0.14, table: 0.09 }, proseInMix: 0.03, slack: 4 },
};

/** The figures of a family (the default one, as estimateTokens's, when none is given). */
export function marginsOf(family: TokenizerFamily = tokenizerFamily()): FamilyMargins {
  return UNDER_BY_FAMILY[family];
}

/** Words of English so common that a line of English prose without any is rare. */
const ENGLISH = new Set(
  'the a an and or but of to in on at for with by from as is are was were be been it its this that these those i you he she we they me my your his her our their not no do does did have has had will would can could should so if then than what which who when where how there here all some any about into up out just also very more one'.split(' '),
);
/** Common words of the Latin-script languages the estimator prices within a tenth or over-counts
 * (German, French, Spanish, Portuguese, Dutch, Turkish), none of them an English word. */
const WEST_WORDS = new Set(
  'der das und ist nicht mit ein eine zu dem von auf ich wir sie es auch noch aber wie oder sind le les des du et est une qui pour dans avec pas sur ce nous vous elle el los las del que en y por para una con es muy pero como os da dos das em um uma mas muito het een en van niet ik je zijn op dat met ve bir bu ile'.split(' '),
);
/** Common words of those it under-counts most (Italian, Czech, Polish, Slovak), none of them an
 * English word or one of WEST_WORDS. */
const HARD_WORDS = new Set(
  'il di della delle dei degli che non sono anche questo questa molto nel nella alla gli ho abbiamo siamo mi si ma ci ti io hai qui tutto mio cosa era solo dopo stato stata quando ancora fatto sempre poi lo je se na jsem jsme jsou jestli nebo ale pro jak tak moje nie jest czy dla'.split(' '),
);

/** Letters of the Latin languages it under-counts most (Czech, Polish, Slovak, Hungarian …:
 * ě č ř ů ł ą ę ś ź ż ń ť ď ň ő ű). */
const CENTRAL = new Set([...'ěčřůłąęśźżńťďňőűĚČŘŮŁĄĘŚŹŻŃŤĎŇŐŰ'].map((c) => c.charCodeAt(0)));

/** The kind of one line: the hardest kind it holds enough of. Another script, Cyrillic or CJK from
 * a twentieth of its characters; emoji from one; a padded table row from a run of four spaces
 * after text; code from two code marks and a fiftieth of its characters; a path from a word with
 * two slashes (a path, a URL) or of 24 characters (an id, a hash). Latin text is English prose unless it shows it is not: with a
 * letter of Czech or Polish (ě ł ř …), or more common words of Italian, Czech or Polish than of
 * English (Italian and Czech without accents), it is 'latinext', the estimator's worst; with more
 * common words of German, French, Spanish … than of English, or with two accented letters and a
 * sixtieth of its letters, 'latin' (a name like José in an English line is not enough). */
export function kindOf(text: string): TextKind {
  const n = text.length;
  let letters = 0;
  let accented = 0;
  let central = 0;
  let cyrillic = 0;
  let script = 0;
  let cjk = 0;
  let emoji = 0;
  let code = 0;
  let spaces = 0;
  let padded = false;
  let runSlashes = 0;
  let path = false;
  let run = 0;
  let longRun = false;
  let english = 0;
  let westWords = 0;
  let hardWords = 0;
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0x20;
    // A word (no space, bracket or comma) of 24 characters or with two slashes: a path, a URL, an id, a hash.
    if (c === 0x20 || c === 0xa0 || c === 0x0a || c === 0x28 || c === 0x29 || c === 0x2c) run = runSlashes = 0;
    else if (++run >= 24) longRun = true;
    if (((c | 0x20) - 0x61) >>> 0 < 26) {
      spaces = 0;
      letters++;
      if (start < 0) start = i;
      continue;
    }
    const accent = (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) || (c >= 0x1e00 && c <= 0x1eff);
    if (start >= 0 && !accent) {
      // A word of ASCII letters ends (one with an accented letter is not English).
      if (i - start <= 7) {
        const w = text.slice(start, i).toLowerCase();
        if (ENGLISH.has(w)) english++;
        else if (WEST_WORDS.has(w)) westWords++;
        else if (HARD_WORDS.has(w)) hardWords++;
      }
      start = -1;
    }
    if (c === 0x20 || c === 0xa0) {
      if (++spaces >= 4 && i + 1 > spaces) padded = true;
      continue;
    }
    spaces = 0;
    if (c < 0x80) {
      if (c === 0x2f && ++runSlashes >= 2) path = true;
      // { } < > = _ \ and the backtick: code and markup rather than prose. (Not the semicolon: the
      // block's own lists are "A; B; C".)
      else if (c === 0x7b || c === 0x7d || c === 0x3c || c === 0x3e || c === 0x3d || c === 0x5f || c === 0x5c || c === 0x60) code++;
    } else if (accent) {
      letters++;
      accented++;
      if (CENTRAL.has(c)) central++;
      start = -1;
    } else if (c >= 0x400 && c <= 0x52f) cyrillic++;
    else if ((c >= 0x1100 && c <= 0x11ff) || (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef) || (c >= 0xd840 && c <= 0xd87f)) cjk++;
    else if ((c >= 0x2190 && c <= 0x2bff) || (c >= 0xd800 && c <= 0xdbff)) emoji++;
    // Every other letter past Latin: Greek, Armenian, Hebrew, Arabic, Indic, Thai, Georgian …
    else if ((c >= 0x370 && c <= 0x3ff) || (c >= 0x530 && c <= 0x1bff) || (c >= 0x1f00 && c <= 0x1fff) || (c >= 0xfb1d && c <= 0xfefe)) script++;
  }
  let kind: TextKind = 'prose';
  const take = (k: TextKind, when: boolean): void => {
    if (when && UNDER[k] > UNDER[kind]) kind = k;
  };
  const isCode = code >= 2 && code * 50 >= n;
  // Another language: more of its common words than of English's, two at least.
  const hard = hardWords >= 2 && hardWords > english && hardWords > westWords;
  const west = westWords >= 2 && westWords > english;
  take('code', isCode);
  take('path', path || longRun);
  take('emoji', emoji > 0);
  take('table', padded);
  take('cjk', cjk * 20 >= n && cjk > 0);
  take('cyrillic', cyrillic * 20 >= n && cyrillic > 0);
  take('script', script * 20 >= n && script > 0);
  take('latin', west || (accented >= 2 && accented * 60 >= letters));
  take('latinext', central > 0 || hard);
  return kind;
}

/**
 * The margin for a block made of these texts: with `u` each text's kind's worst under-count and
 * `w` its estimated tokens, the block's real count is at most Σ w / (1 − u), so an estimate held to
 * (1 − margin) of the budget stays within the budget when 1 − margin = Σ w / Σ (w / (1 − u)).
 * Texts all of one kind take that kind's figure as it is; a mix is rounded up to a thousandth,
 * and English prose counts in it for its under-count over many lines ({@link FamilyMargins}'s
 * proseInMix). The figures are those of `family` (the family `cost` estimates for). (Each
 * sentence is a text of its own here.)
 */
export function marginFor(texts: readonly string[], cost: (text: string) => number = estimateTokens, family?: TokenizerFamily): number {
  const { under, proseInMix } = marginsOf(family);
  // Each sentence is judged apart: a line may quote a sentence of another language.
  const pieces: string[] = [];
  const kinds: TextKind[] = [];
  let mixed = false;
  for (const t of texts) {
    if (!t) continue;
    for (const piece of marginSentences(t)) {
      if (!piece) continue;
      const k = kindOf(piece);
      if (kinds.length && k !== kinds[0]) mixed = true;
      pieces.push(piece);
      kinds.push(k);
    }
  }
  if (!kinds.length) return under.prose;
  if (!mixed) return under[kinds[0] as TextKind];
  let w = 0;
  let real = 0;
  pieces.forEach((piece, i) => {
    const tokens = Math.max(1, cost(piece));
    const kind = kinds[i] as TextKind;
    w += tokens;
    real += tokens / (1 - (kind === 'prose' ? proseInMix : under[kind]));
  });
  // (Never under English prose's own margin: the narrowest a block is held to.)
  return Math.max(under.prose, Math.ceil(1000 * (1 - w / real) - 1e-9) / 1000);
}

/** The sentences of a line: cut after . ! ? and a space (bench/block-margins.mjs cuts so too). */
export function marginSentences(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i - 1);
    if ((c === 0x2e || c === 0x21 || c === 0x3f) && text.charCodeAt(i) === 0x20) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** Tokens held back on top of the share in a block of text harder than English prose: one short
 * sentence of a hard kind runs past its kind's figure (a Czech sentence without its accents by 38 %
 * against 30 %), by a token or two that a small block feels and a large one does not. */
export const HARD_SLACK_TOKENS = 2;

/** The share of a block of `budget` tokens held back for text of margin `share`: the share itself
 * for English prose (the family's prose figure), and {@link HARD_SLACK_TOKENS} more for the rest;
 * and the family's own slack for every block. */
export function shareFor(share: number, budget: number, family?: TokenizerFamily): number {
  if (budget <= 0) return share;
  const { under, slack } = marginsOf(family);
  return share + ((share > under.prose ? HARD_SLACK_TOKENS : 0) + slack) / budget;
}

/** The margin a written block needs for its own text: its lines, the tags (its first and last
 * line, which the estimator prices exactly) left out. */
export function blockMargin(block: string, cost?: (text: string) => number, family?: TokenizerFamily): number {
  return marginFor(block.split('\n').slice(1, -1), cost, family);
}

/** The texts a block of this record draws from (the facts the block can hold, not the whole pool). */
function blockTexts(record: CompactionRecord): string[] {
  const lines = [record.goal, record.request, record.leftOff, record.nextStep, ...record.constraints, ...record.decisions, ...record.done, ...record.openTasks, ...record.errors, ...record.facts.slice(0, 80)];
  return [...lines.map((l) => l?.text ?? ''), ...record.filesModified.map((f) => f.path), ...record.filesRead.map((f) => f.path)];
}

/** The margin for a block of this record, before it is written (see {@link marginFor}); the block
 * written is held to its own text's margin ({@link blockMargin}, in render-extras.ts trimToFit). */
export function recordMargin(record: CompactionRecord, cost?: (text: string) => number, family?: TokenizerFamily): number {
  return marginFor(blockTexts(record), cost, family);
}
