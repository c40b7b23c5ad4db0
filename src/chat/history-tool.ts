// The `search_history` tool: the model searches the messages of this conversation that are no
// longer sent (removed by a compaction round, or micro-compacted tool results — their original
// text, not the placeholder) and reads the best matches verbatim, or the messages around one.
// Read-only, so it needs no approval. The index grows as rounds remove messages (search-history.ts
// in the core ranks); an undo that sends messages again rebuilds it, which is rare.
import { fitQuoted } from './fit-quoted';
import { type ChatMessage, type ToolCall, parseToolArguments } from '../core/messages';
import { type Asker, HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT, HistoryIndex, SEARCH_HISTORY, historyWorthOffering } from '../core/search-history';

/** Tokens a result may take at most: enough for a few long messages, small against any window. */
export const HISTORY_RESULT_TOKENS = 1_500;
/** Messages shown on each side of an `around` id. */
const AROUND = 3;

export class HistorySearch {
  private index = this.newIndex();
  /** The indexed messages, in conversation order. */
  private order: ChatMessage[] = [];
  private readonly position = new Map<string, number>();

  private chars = 0;

  /** Whether the tool is worth offering in a window of this size (see `historyWorthOffering`). */
  available(window: number): boolean {
    return historyWorthOffering(this.chars, window);
  }

  /** Brings the index in line with `unsent` (the messages no longer sent, in order): new ones are
   * added (O(their text)); when one is sent again (an undo, a rewrite) the index is rebuilt. */
  sync(unsent: readonly ChatMessage[]): void {
    const ids = new Set(unsent.map((m) => m.id));
    if (this.order.some((m) => !ids.has(m.id))) this.reset();
    for (const message of unsent) {
      if (this.position.has(message.id)) continue;
      this.position.set(message.id, this.order.length);
      this.order.push(message);
      this.chars += message.content.length;
      this.index.add(message.id, message.content, message.role, speaker(message));
    }
  }

  reset(): void {
    this.index = this.newIndex();
    this.order = [];
    this.chars = 0;
    this.position.clear();
  }

  /** An index that reads phrase checks from the messages kept here (no second copy of the text). */
  private newIndex(): HistoryIndex<string> {
    return new HistoryIndex<string>((id) => this.order[this.position.get(id) ?? -1]?.content ?? '');
  }

  /** How many messages are indexed. */
  get size(): number {
    return this.order.length;
  }

  /** The indexed messages that best match `query`, best first: for the panel's search box (a
   * person asks) and the tool (the model asks). */
  find(query: string, limit: number, asker: Asker): ChatMessage[] {
    return this.index
      .search(query, limit, asker)
      .map((h) => this.order[this.position.get(h.key) ?? -1])
      .filter((m): m is ChatMessage => m !== undefined);
  }

  /** Runs one call; never throws. */
  run(call: ToolCall): { content: string; isError?: boolean } {
    const args = parseToolArguments(call.arguments.trim() === '' ? { ...call, arguments: '{}' } : call);
    if (!args) return { content: `The arguments of ${SEARCH_HISTORY} are not a JSON object.`, isError: true };
    if (typeof args.around === 'string' && args.around.trim()) return this.around(args.around.trim());
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) return { content: 'Give a "query" to search for, or "around" with a message id.', isError: true };
    const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.min(HISTORY_MAX_LIMIT, Math.floor(args.limit)) : HISTORY_DEFAULT_LIMIT;
    // The model asks: its "I" points at the assistant's messages, its "you" at the user's.
    const messages = this.find(query, limit, 'assistant');
    if (!messages.length) return { content: `No earlier message matches "${query}" (searched ${this.order.length} compacted messages).` };
    return { content: fitMessages(`Best matches for "${query}" among ${this.order.length} compacted messages, best first:`, messages) };
  }

  private around(id: string): { content: string; isError?: boolean } {
    const at = this.position.get(id);
    if (at === undefined) return { content: `No compacted message has the id "${id}".`, isError: true };
    const near = this.order.slice(Math.max(0, at - AROUND), at + AROUND + 1);
    return { content: fitMessages(`The compacted messages around ${id}, in order:`, near) };
  }
}

/** Who said a message, as shown and indexed. */
function speaker(message: ChatMessage): string {
  return message.role === 'tool' ? `tool ${message.name ?? ''}`.trim() : message.role;
}

/** A heading and the messages, verbatim, each with its id, speaker and time, within
 * {@link HISTORY_RESULT_TOKENS}: a message that does not fit whole is cut at a word and marked. */
function fitMessages(heading: string, messages: readonly ChatMessage[]): string {
  const label = (message: ChatMessage): string =>
    `[id ${message.id} · ${speaker(message)}${message.createdAt > 0 ? ` · ${new Date(message.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''}]`;
  return fitQuoted(
    heading,
    messages.map((m) => ({ label: label(m), text: m.content, rest: `call ${SEARCH_HISTORY} with around="${m.id}" to read it` })),
    HISTORY_RESULT_TOKENS,
  );
}
