// Context windows of common models, and where compaction should start within one.
// Windows change as vendors ship models; the user can always override the figure in settings.

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
