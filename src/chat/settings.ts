// Plugin settings: what is saved in data.json. API keys are never stored here: they live in
// Obsidian's SecretStorage and only the secret's *name* is kept (`apiKeySecret`).
import { contextWindowFor } from '../core/models';
import { type Budgets, resolveBudgets } from '../core/policy';
import type { ProviderId } from '../providers/types';

export type TriggerMode = 'percent' | 'tokens';

export interface CompactChatSettings {
  /** Which wire protocol the server speaks. */
  provider: ProviderId;
  /** Server address; empty means the provider's default (Ollama on localhost, the vendor's API). */
  baseUrl: string;
  /** Model id as the provider knows it, e.g. `llama3.1:8b`, `gpt-4o`, `claude-sonnet-4`; empty: none chosen. */
  model: string;
  /** Name of the SecretStorage secret holding the API key; empty: no key. Never the key itself. */
  apiKeySecret: string;
  /** Context window override in tokens; 0 means "use the known window for the model". */
  contextWindowOverride: number;
  /** Ollama: the context size sent as `num_ctx` (Ollama allocates it in memory when the model
   * loads), and the window the meter and the compaction point work with. */
  ollamaContextSize: number;
  /** Tokens kept free for the model's reply (also sent as the reply's token limit). */
  replyReserve: number;
  /** Whether the compaction point is a percentage of the window or a token count. */
  triggerMode: TriggerMode;
  /** Compact when the prompt would exceed this percentage of the window (1–100). */
  triggerPercent: number;
  /** Compact when the prompt would exceed this many tokens (triggerMode 'tokens'). */
  triggerTokens: number;
  /** Compact when more messages than this would be sent; 0 disables the limit. */
  messageLimit: number;
  /** Recent exchanges always kept verbatim. */
  keepExchanges: number;
  /** Recent tokens always kept verbatim. */
  keepTokens: number;
  /** Token budget of the `<previous_context>` block. */
  contextBudget: number;
  /** Token budget of the notes re-read and attached after a compaction. */
  restoredNotesBudget: number;
  /** Clear old bulky tool results before a full compaction. */
  microCompaction: boolean;
  /** Attach the active note to every request. */
  includeActiveNote: boolean;
  /** Token budget of the active note; a longer note is attached up to this point. */
  activeNoteBudget: number;
  /** The system prompt every request starts with. */
  systemPrompt: string;
  /** Token budget of the notes mentioned with `[[…]]` in the messages still sent. */
  mentionBudget: number;
  /** Offer the vault tools (read, search, list; create and append after approval) to the model. */
  vaultTools: boolean;
  /** Vault folder the conversation notes are saved in. */
  conversationFolder: string;
  /** Seconds to wait for the server's first answer (a local model may first have to load). */
  connectTimeoutSeconds: number;
  /** Seconds a streamed reply may go silent before it counts as stalled (the partial reply is kept). */
  idleTimeoutSeconds: number;
  /** Load images from other sites in replies at once (off: a button loads each on click). */
  allowRemoteImages: boolean;
}

export const PROVIDER_IDS: readonly ProviderId[] = ['ollama', 'openai', 'anthropic'];

export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful assistant inside Obsidian, a note-taking app. Answer concisely in Markdown. ' +
  'Refer to notes with [[wikilinks]].';

export const DEFAULT_SETTINGS: CompactChatSettings = {
  provider: 'ollama',
  baseUrl: 'http://localhost:11434',
  model: '',
  apiKeySecret: '',
  contextWindowOverride: 0,
  ollamaContextSize: 8192,
  replyReserve: 2048,
  triggerMode: 'percent',
  triggerPercent: 85,
  triggerTokens: 6000,
  messageLimit: 0,
  keepExchanges: 2,
  keepTokens: 2000,
  contextBudget: 1500,
  restoredNotesBudget: 2000,
  microCompaction: true,
  includeActiveNote: false,
  activeNoteBudget: 4000,
  systemPrompt: DEFAULT_SYSTEM_PROMPT,
  mentionBudget: 4000,
  vaultTools: true,
  conversationFolder: 'Compact Chat',
  connectTimeoutSeconds: 120,
  idleTimeoutSeconds: 90,
  allowRemoteImages: false,
};

/** Default base URL of each provider, shown as the placeholder and used when switching. */
export const DEFAULT_BASE_URLS: Record<ProviderId, string> = {
  ollama: 'http://localhost:11434',
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

/** Bounds of the numeric settings; out-of-range values are clamped, non-integers rounded. */
const NUMBER_BOUNDS: Partial<Record<keyof CompactChatSettings, readonly [number, number]>> = {
  contextWindowOverride: [0, 10_000_000],
  ollamaContextSize: [512, 10_000_000],
  replyReserve: [0, 1_000_000],
  triggerPercent: [1, 100],
  triggerTokens: [256, 10_000_000],
  messageLimit: [0, 100_000],
  keepExchanges: [0, 1000],
  keepTokens: [0, 10_000_000],
  contextBudget: [64, 1_000_000],
  restoredNotesBudget: [0, 1_000_000],
  activeNoteBudget: [0, 1_000_000],
  mentionBudget: [0, 1_000_000],
  connectTimeoutSeconds: [5, 3600],
  idleTimeoutSeconds: [5, 3600],
};

const ENUMS: Partial<Record<keyof CompactChatSettings, readonly string[]>> = {
  provider: PROVIDER_IDS,
  triggerMode: ['percent', 'tokens'],
};

/** Secret names SecretStorage accepts: lowercase letters and digits in dash-separated groups. */
export const SECRET_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Merges what was loaded from disk over the defaults, dropping unknown keys (an API key pasted
 * into data.json by hand included) and values of the wrong type, clamping numbers into range, so a
 * hand-edited or older data.json can never put the plugin in a broken state.
 */
export function mergeSettings(loaded: unknown): CompactChatSettings {
  const result: CompactChatSettings = { ...DEFAULT_SETTINGS };
  if (loaded === null || typeof loaded !== 'object' || Array.isArray(loaded)) return result;
  const record = loaded as Record<string, unknown>;
  const out = result as unknown as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof CompactChatSettings)[]) {
    const value = record[key];
    if (typeof value !== typeof DEFAULT_SETTINGS[key]) continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) continue;
      const bounds = NUMBER_BOUNDS[key];
      out[key] = bounds ? Math.min(bounds[1], Math.max(bounds[0], Math.round(value))) : value;
      continue;
    }
    if (typeof value === 'string') {
      const allowed = ENUMS[key];
      if (allowed && !allowed.includes(value)) continue;
      if (key === 'apiKeySecret' && value !== '' && !SECRET_NAME.test(value)) continue;
    }
    out[key] = value;
  }
  return result;
}

/** The model id as typed, trimmed; undefined when none is chosen (the estimator's default family). */
export function modelOf(settings: Pick<CompactChatSettings, 'model'>): string | undefined {
  return settings.model.trim() || undefined;
}

/** The window requests use: the override when set; for Ollama the context size sent as `num_ctx`
 * (the size it actually allocates, not the model's maximum); otherwise the model's known window. */
export function windowFor(settings: CompactChatSettings): number {
  if (settings.contextWindowOverride > 0) return settings.contextWindowOverride;
  if (settings.provider === 'ollama') return settings.ollamaContextSize;
  return contextWindowFor(modelOf(settings));
}

/** What the compaction policy works with in a window of `window` tokens: the configured numbers,
 * scaled down where they do not fit (the settings tab lists which). */
export function budgetsFor(settings: CompactChatSettings, window: number): Budgets {
  return resolveBudgets({
    window,
    replyReserve: settings.replyReserve,
    trigger: settings.triggerMode === 'tokens' ? { kind: 'tokens', tokens: settings.triggerTokens } : { kind: 'percent', percent: settings.triggerPercent },
    messageLimit: settings.messageLimit,
    keepExchanges: settings.keepExchanges,
    keepTokens: settings.keepTokens,
    blockBudget: settings.contextBudget,
    restoredBudget: settings.restoredNotesBudget,
  });
}

/** Where compaction starts in a window of `window` tokens: a percentage of it, or a token count;
 * either way never past the point where the (scaled) reply reserve would no longer fit. */
export function compactionPointFor(settings: CompactChatSettings, window: number): number {
  return budgetsFor(settings, window).point;
}
