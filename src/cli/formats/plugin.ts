// Compact Chat's own saved conversation note (docs/conversation-format.md). The parser is the
// plugin's own, so the CLI reads exactly what the plugin writes; compaction records in the note
// are the plugin's history and are not replayed here (the CLI compacts the messages afresh).
import { parseConversation } from '../../chat/conversation-format';
import { MessageFormatError } from '../../core';
import type { Conversation } from './types';

export function fromPluginNote(text: string): Conversation[] {
  const parsed = parseConversation(text);
  if (!parsed.ok) throw new MessageFormatError(`line ${parsed.line}`, parsed.error);
  const c = parsed.conversation;
  const messages = c.items.flatMap((item) => (item.kind === 'message' ? [item.message] : []));
  return [{ id: c.id, title: c.title, messages, ...(c.model ? { model: c.model } : {}) }];
}
