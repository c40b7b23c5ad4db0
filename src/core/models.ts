// Context windows of common models, and where compaction should start within one.
// Windows change as vendors ship models; the user can always override the figure in settings.
import type { TokenizerFamily } from './tokenizer-family';

/** Window assumed for a model we do not know. Small on purpose: guessing too big overflows. */
export const DEFAULT_CONTEXT_WINDOW = 8192;

/** Ordered: the first pattern that matches the (lower-cased, prefix-stripped) model id wins, so
 * more specific ids come before their family. */
const KNOWN_WINDOWS: readonly (readonly [RegExp, number])[] = [
  // OpenAI
  [/^gpt-5/, 400_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-4o/, 128_000],
  [/^chatgpt-4o/, 128_000],
  [/^gpt-4-turbo|^gpt-4-(0125|1106)/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4\b/, 8_192],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^o[134](-|$)/, 200_000],
  [/^gpt-oss/, 131_072],
  // Anthropic
  [/^claude-/, 200_000],
  // Common Ollama / open-weight families (the model's trained window; Ollama's own default
  // num_ctx is much smaller, which is why providers always send num_ctx).
  [/^llama3\.[123]/, 131_072],
  [/^llama3/, 8_192],
  [/^llama2/, 4_096],
  [/^codellama/, 16_384],
  [/^qwen3/, 40_960],
  [/^qwen2\.5-coder/, 32_768],
  [/^qwen2\.5|^qwen2/, 32_768],
  [/^qwq/, 40_960],
  [/^deepseek-r1|^deepseek-v3/, 131_072],
  [/^deepseek-coder-v2/, 163_840],
  [/^mistral-nemo/, 131_072],
  [/^mistral-small/, 32_768],
  [/^mistral-large/, 131_072],
  [/^mixtral/, 32_768],
  [/^mistral/, 32_768],
  [/^gemma3:1b/, 32_768],
  [/^gemma3/, 131_072],
  [/^gemma2|^gemma/, 8_192],
  [/^phi4/, 16_384],
  [/^phi3\.5|^phi3:.*128k/, 131_072],
  [/^phi3/, 4_096],
  [/^command-r/, 131_072],
  [/^granite3/, 131_072],
  [/^smollm2/, 8_192],
];

/** Strips router prefixes (`openrouter/anthropic/claude-…`, `anthropic/claude-…`, `library/…`). */
export function canonicalModelId(model: string): string {
  const lower = model.trim().toLowerCase();
  const slash = lower.lastIndexOf('/');
  return slash >= 0 ? lower.slice(slash + 1) : lower;
}

/**
 * Model ids → the tokenizer family whose weights estimate their prompts (see tokens.ts). Matched on
 * the canonical id (router prefix stripped); the first match wins.
 *
 * `llama` and `mistral` are the SentencePiece vocabularies of 32k tokens: Llama 1/2 and what was
 * trained on its tokenizer (Code Llama, TinyLlama, Vicuna, Phi-3); Mistral's v1–v3 tokenizers
 * (Mistral 7B, Mixtral, Codestral and the fine-tunes named after them). They spell digits one by
 * one and much non-Latin text byte by byte, needing up to 2.7× o200k's tokens, so they must not
 * share the default. Later Mistral models (Tekken: NeMo, Ministral, Pixtral) tokenise like cl100k;
 * other `mistral-…` ids (Small 3, Large 2411) still map to `mistral`, which over-counts them — the
 * safe side.
 */
const KNOWN_FAMILIES: readonly (readonly [RegExp, TokenizerFamily])[] = [
  [/^(gpt-4o|chatgpt|gpt-4\.[15]|gpt-5|gpt-oss|o[1-9](-|:|$)|codex)/, 'o200k'],
  [/^(gpt-4|gpt-3\.5|gpt-35|text-embedding|davinci|babbage)/, 'cl100k'],
  [/(^|-)(mistral|ministral|pixtral)-?nemo|^(open-)?(ministral|pixtral)/, 'cl100k'],
  [/^((open-)?mi[sx]tral|codestral|mathstral|zephyr|openhermes|dolphin-mi[sx]tral|nous-hermes-?2-mixtral|wizardlm-?2|neural-chat|starling-lm|openchat)/, 'mistral'],
  [/^(llama-?[12]([^.\d]|$)|code-?llama|tinyllama|vicuna|orca-?2|solar|phi-?3)/, 'llama'],
];

/**
 * The tokenizer family of a model id as typed in settings (`gpt-4o`, `claude-sonnet-4`,
 * `openrouter/anthropic/claude-3.5-sonnet`, `mistral:7b` …).
 *
 * Unknown ids get `cl100k`: every modern vocabulary a local or unknown model is likely to use
 * (Llama 3, Qwen, Gemma, DeepSeek, Mistral Tekken, o200k) needs at most about as many tokens as
 * cl100k for the same text, and its weights lean toward over-counting. Models on the older 32k
 * SentencePiece vocabularies are named in KNOWN_FAMILIES.
 */
export function tokenizerFamily(model?: string): TokenizerFamily {
  const full = (model ?? '').trim().toLowerCase();
  if (/claude|anthropic/.test(full)) return 'claude';
  const id = canonicalModelId(full);
  for (const [pattern, family] of KNOWN_FAMILIES) if (pattern.test(id)) return family;
  return 'cl100k';
}

/** The model's context window in tokens; a positive `override` (from settings) always wins. */
export function contextWindowFor(model: string | undefined, override?: number): number {
  if (override !== undefined && Number.isFinite(override) && override > 0) return Math.floor(override);
  if (!model) return DEFAULT_CONTEXT_WINDOW;
  const id = canonicalModelId(model);
  for (const [pattern, window] of KNOWN_WINDOWS) if (pattern.test(id)) return window;
  return DEFAULT_CONTEXT_WINDOW;
}

/** Where compaction starts: either the window minus the reply reserve and a safety buffer, or a
 * percentage of the window (still never past the point where the reply would not fit). */
export type CompactionThreshold =
  | { kind: 'reserve'; replyReserve: number; safetyBuffer: number }
  | { kind: 'percent'; percent: number; replyReserve: number };

/** Smallest compaction point ever returned, so tiny windows with big reserves stay usable. */
export const MIN_COMPACTION_POINT = 256;

export function compactionPoint(window: number, threshold: CompactionThreshold): number {
  const reserve = Math.max(0, threshold.replyReserve);
  const ceiling = window - reserve;
  const point =
    threshold.kind === 'reserve'
      ? ceiling - Math.max(0, threshold.safetyBuffer)
      : Math.min(ceiling, Math.floor((window * clamp(threshold.percent, 1, 100)) / 100));
  return Math.max(Math.min(MIN_COMPACTION_POINT, window), Math.floor(point));
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : max;
}
