// Plugin settings: what is saved in data.json. API keys are never stored here
// (they live in Obsidian's SecretStorage; only the secret's id is kept).

export interface CompactChatSettings {
  /** Model id as the provider knows it, e.g. `llama3.1:8b`, `gpt-4o`, `claude-sonnet-4`. */
  model: string;
  /** Context window override in tokens; 0 means "use the known window for the model". */
  contextWindowOverride: number;
  /** Tokens kept free for the model's reply. */
  replyReserve: number;
  /** Compact when the prompt would exceed this percentage of the usable window (1–100). */
  triggerPercent: number;
  /** Compact when the conversation has more messages than this; 0 disables the limit. */
  messageLimit: number;
  /** Recent exchanges always kept verbatim. */
  keepExchanges: number;
  /** Recent tokens always kept verbatim. */
  keepTokens: number;
}

export const DEFAULT_SETTINGS: CompactChatSettings = {
  model: 'llama3.1:8b',
  contextWindowOverride: 0,
  replyReserve: 2048,
  triggerPercent: 85,
  messageLimit: 0,
  keepExchanges: 2,
  keepTokens: 2000,
};

/**
 * Merges what was loaded from disk over the defaults, dropping unknown keys and values of the
 * wrong type so a hand-edited or older data.json can never put the plugin in a broken state.
 */
export function mergeSettings(loaded: unknown): CompactChatSettings {
  const result: CompactChatSettings = { ...DEFAULT_SETTINGS };
  if (loaded === null || typeof loaded !== 'object') return result;
  const record = loaded as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof CompactChatSettings)[]) {
    const value = record[key];
    if (typeof value === typeof DEFAULT_SETTINGS[key]) {
      if (typeof value === 'number' && !Number.isFinite(value)) continue;
      (result as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return result;
}
