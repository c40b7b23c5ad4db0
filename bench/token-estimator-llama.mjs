// Token-bench wrapper: the llama family of src/core/tokens.ts (llama3.1:8b). Run under tsx, see bench/tokens.mjs.
import { estimateTokens } from '../src/core/tokens.ts';

export function estimate(text) {
  return estimateTokens(text, 'llama3.1:8b');
}
