// Saving through the store as its callers do: the store names notes by path, so a caller keeps the
// path of each conversation's note (here per store, by conversation id) and passes it back.
import type { SavedConversation } from '../../../src/chat/conversation-format';
import type { ConversationStore, SaveResult } from '../../../src/chat/conversation-store';

const kept = new WeakMap<ConversationStore, Map<string, string>>();

/** Saves `c` to the note this store last saved it to (a new note the first time), or to `path`. */
export async function saveKept(store: ConversationStore, c: SavedConversation, path?: string): Promise<SaveResult> {
  const paths = kept.get(store) ?? new Map<string, string>();
  kept.set(store, paths);
  const result = await store.save(c, path ?? paths.get(c.id) ?? null);
  if (result.kind === 'saved') paths.set(c.id, result.path);
  return result;
}
