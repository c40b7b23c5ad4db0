// Token-bench wrapper: the claude family of src/core/tokens.ts (claude-sonnet-4). For the kit's own (in-sample) tables:
//   node --import tsx ../shared/bench/tokens/bench.mjs --estimator bench/token-estimator-claude.mjs --reference claude
// The fold-wise figures are npm run bench:tokens (bench/tokens.mjs).
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'claude-sonnet-4');
}
