// Compact Chat's own saved conversation note. The note format arrives with conversation
// persistence (issue 7); until then the CLI names the format and says it cannot read it yet.
import type { Conversation } from './types';

export class UnsupportedFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedFormatError';
  }
}

export const PLUGIN_NOT_SUPPORTED =
  'not supported yet: saved conversation notes arrive with conversation persistence. Export the conversation as OpenAI or Anthropic messages meanwhile.';

export function fromPluginNote(): Conversation[] {
  throw new UnsupportedFormatError(`--from plugin: ${PLUGIN_NOT_SUPPORTED}`);
}
