// Token-bench wrapper: the llama family of src/core/tokens.ts (llama2:7b; Llama 1/2 SentencePiece). For the kit's own (in-sample) tables:
//   node --import tsx ../shared/bench/tokens/bench.mjs --estimator bench/token-estimator-llama.mjs --reference llama
// The fold-wise figures are npm run bench:tokens (bench/tokens.mjs).
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'llama2:7b');
}
