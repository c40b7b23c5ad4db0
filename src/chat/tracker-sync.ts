// The count of what one conversation sends: the token tracker, kept in line with the settings (the
// model it counts for, the system prompt's parts, the tool definitions) and re-anchored on the
// usage the provider reports — unless the report shows the server cut the prompt (Ollama drops the
// front of a prompt longer than num_ctx without a word), which is warned about instead.
//
// Ownership: this module owns the tracker object, the model it counts for and the last usage the
// provider reported; only it replaces the tracker, recounts it from scratch or anchors it on a
// report. The other parts change it a message at a time as they change what is sent (the user's
// turns and the tool loop append, the request loop removes a dropped reply, the compaction control
// removes, updates and sets the system prompt after a round). Plain class, no DOM.
import type { AssistantMessage, ChatMessage } from '../core/messages';
import { TokenTracker } from '../core/tracker';
import type { ProviderUsage } from '../providers/types';
import type { ContextAssembly } from './context-assembly';
import { type CompactChatSettings, modelOf } from './settings';
import type { ToolLoop } from './tool-loop';

/** What the count needs from the session it serves. */
export interface TrackerSyncHost {
  readonly context: ContextAssembly;
  readonly tools: ToolLoop;
  /** The messages the next request carries, as sent (placeholders applied). */
  sentMessages(): ChatMessage[];
  /** The messages no longer sent as written (what the history tool searches). */
  unsentMessages(): ChatMessage[];
  notice(level: 'warning', text: string): void;
}

export class TrackerSync {
  private count = new TokenTracker();
  private countedModel: string | undefined;
  private reported: ProviderUsage | null = null;

  constructor(private readonly host: TrackerSyncHost) {}

  get tracker(): TokenTracker {
    return this.count;
  }

  /** The usage the provider last reported, or null (none yet, or a cut prompt). */
  get lastUsage(): ProviderUsage | null {
    return this.reported;
  }

  /** A new chat: an empty tracker, no model, no report. */
  reset(): void {
    this.reported = null;
    this.count = new TokenTracker();
    this.countedModel = undefined;
  }

  /** Brings the system prompt's base, the tools and the tracker in line with `settings` (a new
   * model recounts everything; otherwise only the system prompt and the tools are counted again). */
  sync(settings: CompactChatSettings): void {
    const model = modelOf(settings);
    const context = this.host.context;
    context.setBase(settings);
    const tools = this.host.tools.sync(settings, this.host.unsentMessages());
    context.setSearchable(this.host.tools.offersHistory());
    if (model !== this.countedModel) {
      this.countedModel = model;
      this.recount();
    } else {
      this.count.setSystemPrompt(context.systemPrompt());
      this.count.setTools(tools);
    }
  }

  /** Counts what is sent now from scratch (O(what is sent): a rewrite, an undo, a load). */
  recount(): void {
    this.count.setModel(this.countedModel, this.host.sentMessages(), this.host.context.systemPrompt(), this.host.tools.definitions);
  }

  /** A reply's usage: anchors the tracker on the prompt the server read, through the last message
   * sent (`through`), unless the figure cannot be trusted. */
  record(settings: CompactChatSettings, usage: ProviderUsage, through: ChatMessage | undefined, reply: AssistantMessage, estimateAtRequest: number, window: number): void {
    if (settings.provider === 'ollama' && isTruncation(usage.promptTokens, estimateAtRequest, window)) {
      // Ollama drops the front of a prompt longer than num_ctx without a word. Its figure counts
      // what it kept, so it must not anchor the count: the meter goes back to the estimate, and
      // the next request compacts (the estimate is over the point).
      this.reported = null;
      this.host.notice(
        'warning',
        `The server cut the prompt: it read ${usage.promptTokens.toLocaleString('en-US')} of about ${estimateAtRequest.toLocaleString('en-US')} tokens (context size ${window.toLocaleString('en-US')}), so the reply did not see the start of the conversation. The next request is compacted to fit; a larger context size in the settings also helps if the model and memory allow it.`,
      );
      return;
    }
    this.reported = usage;
    if (!through) return;
    // Ollama may leave KV-cached prefix tokens out of its count: a figure below our own estimate
    // could then under-count the prompt, so only a figure at or above it re-anchors.
    if (usage.promptTokensLowerBound && usage.promptTokens < estimateAtRequest) return;
    this.count.recordUsage(usage, through.id, reply);
  }
}

/** A reported prompt far below what was sent, when what was sent was over the window: the server
 * truncated it (a KV-cached prefix also lowers Ollama's count, but never past a prompt that fit). */
export function isTruncation(reported: number, estimated: number, window: number): boolean {
  return estimated > window && reported < estimated * 0.75;
}
