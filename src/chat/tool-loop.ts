// The tools of one conversation: which definitions a request carries (the vault tools when the
// setting is on, the history tool while some text is compacted), the models whose server refused
// tools (later requests go without them), and running the calls of a reply, one result per call.
//
// Ownership: this module owns the definitions sent with the next request, the set of models that
// refused tools and the history index (`HistorySearch`); only it changes them, when the session
// asks it to (`sync` on every tracker sync, `refuse` on a refusal, `reset` on a new chat). The
// request loop (request-loop.ts) decides when a reply's calls run (at most MAX_TOOL_ROUNDS per
// send); the results go to the session's entries through the host. Plain class, no DOM.
import { type ChatMessage, type ToolCall, type ToolDefinition, type ToolResultMessage, newMessageId } from '../core/messages';
import { HISTORY_MIN_WINDOW, HISTORY_TOOL_DEFINITION, SEARCH_HISTORY } from '../core/search-history';
import type { ProviderError } from '../providers/errors';
import type { MessageEntry } from './entries';
import { HistorySearch } from './history-tool';
import { CONVERSATIONS_TOOL_DEFINITION, type PastConversations, SEARCH_CONVERSATIONS, runConversationSearch } from './past-conversations-tool';
import type { CompactChatSettings } from './settings';

/** The tools the session offers the model and runs for it. */
export interface ToolRunner {
  definitions(): ToolDefinition[];
  /** Runs one call; never throws (a failure is an error result the model reads). */
  run(call: ToolCall, signal: AbortSignal): Promise<{ content: string; isError?: boolean }>;
}

/** Tool rounds (reply → tool results → reply) one send may take before the session stops asking. */
export const MAX_TOOL_ROUNDS = 8;

/** What the tool loop needs from the session it serves. */
export interface ToolLoopHost {
  /** The vault tools (main.ts), absent in a session without them. */
  readonly runner: ToolRunner | undefined;
  /** The other saved conversations (main.ts), searched by `search_conversations`; absent: not offered. */
  readonly past?: PastConversations | undefined;
  /** The window the requests use: the history tool is offered from 4k windows up. */
  windowOf(settings: CompactChatSettings): number;
  /** Whether the reply is still in the conversation (a "New chat" drops it mid-run). */
  holds(entry: MessageEntry): boolean;
  /** Appends a tool result to the conversation (entry, tracker, event). */
  appendResult(message: ToolResultMessage): void;
  meterChanged(): void;
  now(): number;
}

export class ToolLoop {
  /** Models whose server refused a request with tools: later requests go without them. */
  private readonly noToolModels = new Set<string>();
  /** The tool definitions sent with the next request ([] when tools are off). */
  private current: ToolDefinition[] = [];
  /** The compacted messages, searchable by the model with the history tool. */
  private readonly history = new HistorySearch();

  constructor(private readonly host: ToolLoopHost) {}

  /** The definitions the next request carries (as of the last `sync`). */
  get definitions(): ToolDefinition[] {
    return this.current;
  }

  /** Whether the next request offers the history tool. */
  offersHistory(): boolean {
    return this.current.includes(HISTORY_TOOL_DEFINITION);
  }

  /** Brings the history index in line with the messages no longer sent, and the definitions in
   * line with the settings; returns the definitions. */
  sync(settings: CompactChatSettings, unsent: readonly ChatMessage[]): ToolDefinition[] {
    this.history.sync(unsent);
    this.current = this.toolsFor(settings);
    return this.current;
  }

  /** The server refused tools for this model: later requests go without them. */
  refuse(model: string): void {
    this.noToolModels.add(model.trim());
  }

  /** A new chat: nothing is compacted, so nothing is searchable. */
  reset(): void {
    this.history.reset();
  }

  /** The compacted messages that best match `query`, best first (the panel's search box). */
  searchCompacted(unsent: readonly ChatMessage[], query: string, limit: number): ChatMessage[] {
    this.history.sync(unsent);
    return this.history.find(query, limit, 'user');
  }

  /** How many messages `searchCompacted` searches. */
  compactedCount(unsent: readonly ChatMessage[]): number {
    this.history.sync(unsent);
    return this.history.size;
  }

  /** Runs the tool calls of a reply in order and appends one result per call. */
  async runAll(entry: MessageEntry, signal: AbortSignal): Promise<void> {
    const reply = entry.message;
    if (reply.role !== 'assistant') return;
    for (const call of reply.toolCalls ?? []) {
      const outcome = signal.aborted ? { content: 'The user stopped the reply before this tool ran.', isError: true } : await this.run(call, signal);
      if (!this.host.holds(entry)) return;
      const message: ToolResultMessage = { id: newMessageId(), createdAt: this.host.now(), role: 'tool', toolCallId: call.id, name: call.name, content: outcome.content };
      if (outcome.isError) message.isError = true;
      this.host.appendResult(message);
    }
    this.host.meterChanged();
  }

  /** One call: the history tool is the session's own; the rest go to the vault tools. */
  private async run(call: ToolCall, signal: AbortSignal): Promise<{ content: string; isError?: boolean }> {
    if (call.name === SEARCH_HISTORY) return this.history.run(call);
    if (call.name === SEARCH_CONVERSATIONS && this.host.past) return runConversationSearch(this.host.past, call);
    if (!this.host.runner) return { content: `Unknown tool "${call.name}".`, isError: true };
    return this.host.runner.run(call, signal);
  }

  /** The vault tools (when on), the history tool while some messages are no longer sent, and the
   * earlier conversations' tool while there are other saved conversations. */
  private toolsFor(settings: CompactChatSettings): ToolDefinition[] {
    if (this.noToolModels.has(settings.model.trim())) return [];
    const vault = settings.vaultTools && this.host.runner ? this.host.runner.definitions() : [];
    const window = this.host.windowOf(settings);
    const tools = this.history.available(window) ? [...vault, HISTORY_TOOL_DEFINITION] : vault;
    // Earlier conversations: offered while there are any, in windows the history tool fits in too.
    return window >= HISTORY_MIN_WINDOW && this.host.past?.available() ? [...tools, CONVERSATIONS_TOOL_DEFINITION] : tools;
  }
}

/** Whether the server refused the request because of its tools (a model without tool support:
 * Ollama says "… does not support tools", OpenAI-compatible servers name `tools` or `tool_choice`). */
export function isToolRefusal(error: ProviderError): boolean {
  if (error.kind === 'aborted' || error.kind === 'context-overflow' || error.kind === 'auth' || error.kind === 'connection' || error.kind === 'timeout') return false;
  return /\btools?\b|tool[_ ]choice|function calling/i.test(`${error.message} ${error.detail ?? ''}`);
}
