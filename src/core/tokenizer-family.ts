// The tokenizer family type, on its own so tokens.ts, models.ts and token-weights.ts can all
// import it without importing each other in a circle.

/**
 * Tokenizer families with their own weights: OpenAI's o200k_base and cl100k_base, the Claude
 * tokenizer, and the 32k SentencePiece vocabularies of Llama 1/2 (`llama`) and of Mistral 7B /
 * Mixtral (`mistral`). models.ts maps a model id to its family.
 */
export type TokenizerFamily = 'o200k' | 'cl100k' | 'claude' | 'llama' | 'mistral';
