// Token-bench wrapper: the mistral family of src/core/tokens.ts (mistral:7b; Mistral 7B SentencePiece). For the kit's own (in-sample) tables:
//   node --import tsx ../shared/bench/tokens/bench.mjs --estimator bench/token-estimator-mistral.mjs --reference llama (the kit has no mistral reference; npm run bench:tokens has)
// The fold-wise figures are npm run bench:tokens (bench/tokens.mjs).
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'mistral:7b');
}
