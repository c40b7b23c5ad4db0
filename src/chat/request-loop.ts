// The loop of one send (or regenerate, or edit and resend): before every request the system
// prompt's parts are read again and the compaction control asked (it may compact); then one
// request streams its reply in (reply-stream.ts), the tool calls it asks for run (tool-loop.ts)
// and the loop goes on, at most MAX_TOOL_ROUNDS rounds; a server that refuses tools gets the same
// request without them, and a context overflow is compacted around and retried once.
//
// Ownership: this module owns the abort controller of the send in progress (`busy`, `stop`) and
// the per-send counters (tool rounds, the overflow retry); the session starts it (`run`) and
// reads `busy`. The entries, the rounds and the count stay the session's, changed here only
// through the host. Plain class, no DOM.
import { type AssistantMessage, newMessageId } from '../core/messages';
import type { CompactionControl } from './compaction-control';
import type { ChatEntry, ChatError } from './entries';
import { type ReplyStreamHost, streamReply } from './reply-stream';
import { type CompactChatSettings, modelOf } from './settings';
import { MAX_TOOL_ROUNDS } from './tool-loop';

/** What the loop needs from the session it serves (beyond what one request needs). */
export interface RequestLoopHost extends ReplyStreamHost {
  readonly control: CompactionControl;
  settings(): CompactChatSettings;
  /** Reads what the system prompt is made of now (settings, the active note, mentioned notes). */
  refreshParts(settings: CompactChatSettings): Promise<void>;
}

export class RequestLoop {
  private controller: AbortController | null = null;

  constructor(private readonly host: RequestLoopHost) {}

  /** Whether a send is in progress. */
  get busy(): boolean {
    return this.controller !== null;
  }

  /** Stops the reply being streamed; the partial reply is kept and marked as stopped. */
  stop(): void {
    this.controller?.abort();
  }

  /** Answers the conversation as it stands (its last message is the user's); resolves when the
   * reply, and the tool rounds it asked for, have finished. */
  async run(): Promise<void> {
    const host = this.host;
    const controller = new AbortController();
    this.controller = controller;
    host.events.emit('busy', true);
    try {
      const settings = host.settings();
      if (!modelOf(settings)) {
        this.pushFailure({ kind: 'no-model', message: 'No model is set. Choose one in the plugin settings, then retry.' });
        return;
      }
      await this.prepare(settings);
      let overflowRetried = false;
      let toolRounds = 0;
      for (;;) {
        if (controller.signal.aborted) {
          this.pushStopped(settings.model);
          return;
        }
        const outcome = await streamReply(host, settings, controller.signal);
        if (outcome.kind === 'no-tools') {
          // The server refused tools for this model: send the same request without them.
          this.removeEntry(outcome.entry);
          host.tools.refuse(settings.model);
          host.count.sync(settings);
          host.entries.notice('info', `The server does not accept tools for ${settings.model.trim()}: chatting without vault tools.`);
          continue;
        }
        if (outcome.kind === 'tools') {
          if (toolRounds >= MAX_TOOL_ROUNDS) {
            host.entries.notice('warning', `Stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls in one reply. Send a message to continue.`);
            return;
          }
          toolRounds++;
          await host.tools.runAll(outcome.entry, controller.signal);
          if (controller.signal.aborted) return;
          // Tool results can be long: refresh the notes and compact if a trigger fires.
          await this.prepare(settings);
          continue;
        }
        if (outcome.kind !== 'overflow' || overflowRetried) return;
        overflowRetried = true;
        // The server says the prompt is too long: compact once more, then retry once.
        const result = await host.control.compact(settings, ['overflow'], { force: true });
        if (result.kind === 'skipped') return;
        this.removeEntry(outcome.entry);
      }
    } catch (error) {
      this.pushFailure({ kind: 'unexpected', message: `Something went wrong: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      this.controller = null;
      host.events.emit('status', '');
      host.events.emit('busy', false);
      host.meterChanged();
    }
  }

  /** Before every request (a send and every tool-loop continuation): refresh the system prompt,
   * then ask the compaction policy. */
  private async prepare(settings: CompactChatSettings): Promise<void> {
    const host = this.host;
    await host.refreshParts(settings);
    await host.control.beforeRequest(settings);
    // A round may have removed messages: the history tool and the block's line follow. Offering
    // the tool adds to the prompt the policy just sized, so it is asked once more then.
    const offered = host.tools.offersHistory();
    host.count.sync(settings);
    if (!offered && host.tools.offersHistory()) {
      await host.control.beforeRequest(settings, { quiet: true });
      host.count.sync(settings);
    }
    host.meterChanged();
  }

  /** A reply that is dropped (refused tools, an overflow retried): out of the list and the count. */
  private removeEntry(entry: ChatEntry): void {
    if (!this.host.entries.holds(entry)) return;
    if (entry.kind === 'message') this.host.count.tracker.remove(entry.id);
    this.host.entries.remove(entry);
  }

  private pushFailure(error: ChatError): void {
    const message: AssistantMessage = { id: newMessageId(), createdAt: this.host.now(), role: 'assistant', content: '' };
    this.host.entries.push({ kind: 'message', id: message.id, message, status: 'error', error });
  }

  private pushStopped(model: string): void {
    const message: AssistantMessage = { id: newMessageId(), createdAt: this.host.now(), role: 'assistant', content: '' };
    this.host.entries.push({ kind: 'message', id: message.id, message, status: 'stopped', model });
  }
}
