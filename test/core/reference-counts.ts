// The exact counts each tokenizer family is fitted to (the token kit's references), counted as the
// kit counts them: special-token strings as plain text, Claude after NFKC, SentencePiece without
// BOS. Shared by the estimator's tests and the block margin's. Call freeReferences() in afterAll.
import { getTokenizer } from '@anthropic-ai/tokenizer';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import llamaTokenizer from 'llama-tokenizer-js';
// @ts-expect-error -- mistral-tokenizer-js ships no types; it is llama-tokenizer-js's API (below)
import mistralModule from 'mistral-tokenizer-js';
import type { TokenizerFamily } from '../../src/core/tokens';

/** A model id of each family. */
export const MODEL: Record<TokenizerFamily, string> = { o200k: 'gpt-4o', cl100k: 'gpt-4', claude: 'claude-sonnet-4', llama: 'llama2:7b', mistral: 'mistral:7b' };
export const FAMILIES = Object.keys(MODEL) as TokenizerFamily[];

const plain = { disallowedSpecial: new Set<string>() };
const claudeTokenizer = getTokenizer();
const mistralTokenizer = mistralModule as typeof llamaTokenizer;
export const EXACT: Record<TokenizerFamily, (text: string) => number> = {
  o200k: (t) => o200k(t, plain),
  cl100k: (t) => cl100k(t, plain),
  claude: (t) => claudeTokenizer.encode(t.normalize('NFKC'), 'all').length,
  llama: (t) => llamaTokenizer.encode(t, false).length,
  mistral: (t) => mistralTokenizer.encode(t, false).length,
};

/** Frees the Claude tokenizer's WebAssembly memory. */
export function freeReferences(): void {
  claudeTokenizer.free();
}
