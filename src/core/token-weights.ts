// The token estimator's weights (src/core/tokens.ts), one table per tokenizer family: data, kept
// apart from the automaton that uses them.
import type { TokenizerFamily } from './tokenizer-family';

// Fitted by bench/fit-token-weights.mjs (`--write` replaces this table): one weight per slot, in
// SLOT_NAMES order, each family against its own tokenizer (llama: llama-tokenizer-js, mistral:
// mistral-tokenizer-js). The fit minimises the relative error with under-counts weighed 3×, and pins
// a few slots to facts rather than fits: in o200k/cl100k a group of up to three digits and a newline
// after a letter are at least one token each and a space before a digit is a token of its own; the
// SentencePiece families spell every digit, newline and tab as a token; a run of tabs is at least
// one token everywhere; an emoji costs at least 1.2 (o200k), 1 (mistral) or 1.8 tokens, and in llama
// exactly 4 (its four bytes), the joiner and the variation selector 1 each;
// the ninth and later space or repeated mark of a run costs 0.02 (0.07 in the SentencePiece
// families); `other` characters cost a fixed, conservative 1 (o200k) or 2 tokens; the end of a long
// word in a, i or o (vowelend) is priced only for Claude (0 elsewhere); the cheap accents
// (accentcheap) have weights of their own only in o200k (elsewhere those of accent, as before they
// were a class of their own); ã and õ (accentpt) have weights of their own in Claude and cl100k
// (o200k: accentcheap's, elsewhere accent's); an underscore inside a quoted identifier (snake)
// costs a measured 0.33 in o200k, 0.32 in cl100k and punct0's weight elsewhere; Korean's formal
// ending 니다 (hangulni) adds a measured nothing in cl100k; a space before an emoji or a symbol
// (spacebyte) and a word's first letter that no space leads (latinbare) are priced apart only for
// llama (elsewhere space0's and latin0's weights), and so are the common ideographs Llama 2 spells
// in bytes (hanbytes) and the pictographs of the symbol class (symbolpicto): 0 elsewhere. The
// accented-Latin gettext strings weigh 0.6 in the fits of claude and cl100k (the other tables are the
// ones fitted before that). How it holds on text it never saw: `npm run bench:tokens`.
export const WEIGHTS: Record<TokenizerFamily, readonly number[]> = {
  o200k: [
    0.14, 1, 1.02, 0.02, 0.02, 0.13, 1, 0, 0.88, 0, 0, 0, 0, 0.01, 0.03, 0.14, 0.19, 0.17, 0.28, 0.47,
    0.85, 0.51, 0.29, 0.23, 1.45, 0, 1, 0.59, 0.48, 0.8, 0.27, 0.02, 1.11, 0.22, 0.07, 0.11, 0.07,
    0.48, 0.01, 0.25, 0.68, 0.85, 0, 0.29, 0.26, 0, 0.54, 0.69, 0.65, 0.39, 0.64, 0.23, 0.62, 1.4,
    0.65, 0, 0.75, 1.19, 0.42, 0.54, 0.23, 0.87, 2.26, 1.18, 2.83, 1.3, 0.1, 0.62, 1, 0.07, 0.14,
    1.02, 2.53, 0, 0, 0, 1, 0.62, 1.12, 1, 0, 0.95, 0.21, 0.2, 1, 0.09, 0, 0, 0, 1.22, 0.42, 0.45, 0,
    0, 0, 0.33, 0, 0, 0.14, 0.88, 0, 0,
  ],
  cl100k: [
    0.13, 1, 1.06, 0.02, 0.02, 0.09, 1, 0, 0.89, 0, 0, 0, 0, 0, 0, 0.06, 0.19, 0.33, 0.61, 0.71, 0.71,
    0.71, 0.71, 0.71, 1.42, 0, 1, 0.6, 0.43, 0.55, 0.3, 0.02, 0.4, 1.29, 0.29, 0.37, 0.69, 1.28, 0.1,
    0.6, 1.84, 0.96, 0.96, 0.72, 0, 0, 2.47, 1.08, 1.1, 0.99, 1.64, 1.4, 1.73, 1.52, 0.89, 0.41, 0.97,
    1.46, 0.86, 1.32, 0.47, 0.95, 2.74, 1.39, 3.1, 2.05, 0.69, 0.68, 2, 0.02, 0.2, 1.96, 3.71, 0,
    0.12, 0.13, 1.4, 1.54, 1, 1, 0, 1.81, 0.39, 1.03, 1, 0.09, 1, 0, 0, 0.36, 0, 0, 0, 0.2, 1.96,
    0.32, 0, 0, 0.13, 0.89, 0, 0,
  ],
  claude: [
    0, 0.77, 0.4, 0.01, 0.02, 0.23, 0.49, 0.75, 0.87, 0.13, 0.05, 0, 0.01, 0, 0, 0.04, 0.17, 0.36,
    0.67, 0.83, 0.83, 0.83, 0.83, 0.83, 1.64, 0.01, 0.1, 0.96, 0, 0.16, 0.85, 0.02, 0.63, 0.9, 0.48,
    0.45, 0.78, 1.69, 0.11, 0.65, 1.65, 1.96, 2.1, 0.49, 0, 0, 3.5, 0.59, 0.59, 2.04, 2.12, 1.95,
    3.41, 1.48, 0.79, 0.38, 0.97, 1.12, 1.7, 1.51, 0.44, 0.95, 2.38, 1.48, 2.13, 2.75, 0.92, 0.83, 2,
    0.03, 2.06, 0.67, 4.99, 0, 1.08, 0.6, 0.89, 1.19, 1.3, 1.05, 0.02, 1.76, 0.43, 1.2, 0, 0, 1, 0, 0,
    1, 0, 0.21, 0.4, 2.06, 0.67, 0.96, 0.12, 0, 0, 0.87, 0, 0,
  ],
  llama: [
    0, 1.72, 0.9, 0, 0.07, 1, 1.02, 1, 0.64, 0.3, 0.11, 0.04, 0.03, 0.04, 0.08, 0.16, 0.2, 0.3, 0.46,
    0.58, 0.58, 0.58, 0.58, 0.58, 1.45, 1, 1, 0.69, 0.07, 0.13, 0.43, 0.07, 0.85, 0.63, 0.29, 0.75,
    0.99, 1.3, 0.49, 0.88, 1.67, 2.09, 1.94, 0.5, 0, 0, 2.83, 0.83, 0.85, 1.2, 1.9, 1.71, 2.46, 1.65,
    1.2, 0.53, 1.08, 2.3, 2.19, 1.88, 0.19, 0.95, 1.84, 0.87, 4, 4, 1, 1, 2, 0.18, 2.12, 0.14, 0.02,
    3.11, 0.79, 0.7, 0.21, 0.5, 1, 1, 1, 1.86, 0.42, 1.03, 1.3, 0.17, 1, 1, 0, 0, 0, 0.81, 0, 2.12,
    0.14, 0.69, 2.12, 0.14, 0.48, 1.17, 1.31, 0.95,
  ],
  mistral: [
    0, 0.88, 0.56, 0.01, 0.07, 1.05, 1, 1, 0.88, 0.15, 0.03, 0, 0.03, 0.01, 0.04, 0.11, 0.18, 0.34,
    0.64, 0.74, 0.74, 0.74, 0.74, 0.74, 1.76, 1, 1, 1.02, 0.03, 0.3, 0.54, 0.07, 0.64, 0.81, 0.32,
    0.94, 1.02, 1.24, 0.62, 0.9, 1.55, 2.01, 1.93, 0.48, 0, 0, 2.38, 0.79, 0.79, 1.11, 1.12, 0.94,
    1.3, 1.65, 1.03, 0.33, 1.12, 1.6, 1.62, 1.22, 0.57, 0.95, 2.47, 1.14, 3.85, 2.84, 0.46, 0.76, 2,
    0.13, 2.64, 0.19, 0.86, 2.58, 0.73, 0.2, 0.35, 0.42, 1, 1, 1, 0.71, 0.21, 1.03, 1, 0.93, 1, 1, 0,
    0.14, 0, 0.2, 0, 2.64, 0.19, 1.02, 2.64, 0.19, 0, 0.88, 0, 0,
  ],
};
