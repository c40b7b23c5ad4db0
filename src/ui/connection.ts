// How the views name the connection: the provider's display name, and where it runs.
import type { ProviderId } from '../providers/types';

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  ollama: 'Ollama',
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
};

/** The connection as the settings hold it (the chat header and the empty state show it). */
export interface ConnectionInfo {
  provider: ProviderId;
  /** The server address in use (the provider's default when the setting is empty). */
  baseUrl: string;
  /** '' when no model is chosen. */
  model: string;
}

/** "Ollama on this device", "Ollama at http://nas:11434", "Anthropic", "the server at …". */
export function describeServer(c: ConnectionInfo): string {
  let host = '';
  try {
    host = new URL(c.baseUrl).hostname;
  } catch {
    return `${PROVIDER_NAMES[c.provider]} at ${c.baseUrl}`;
  }
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  if (c.provider === 'anthropic' && host === 'api.anthropic.com') return 'Anthropic';
  if (c.provider === 'openai' && host === 'api.openai.com') return 'OpenAI';
  return local ? `${PROVIDER_NAMES[c.provider]} on this device` : `${PROVIDER_NAMES[c.provider]} at ${c.baseUrl}`;
}
