// Token-bench wrapper: the cl100k family of src/core/tokens.ts (gpt-4). For the kit's own (in-sample) tables:
//   node --import tsx ../shared/bench/tokens/bench.mjs --estimator bench/token-estimator-cl100k.mjs --reference cl100k
// The fold-wise figures are npm run bench:tokens (bench/tokens.mjs).
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'gpt-4');
}
