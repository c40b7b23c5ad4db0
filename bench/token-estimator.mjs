// Token-bench wrapper: the o200k family of src/core/tokens.ts (gpt-4o). Run under tsx, see bench/tokens.mjs.
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'gpt-4o');
}
