// Token-bench wrapper: the claude family of src/core/tokens.ts (claude-sonnet-4). Run under tsx, see bench/tokens.mjs.
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'claude-sonnet-4');
}
