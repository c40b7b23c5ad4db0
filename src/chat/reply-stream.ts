// One request of the session's loop: what is sent now goes to the provider, and its reply streams
// into a new entry (text, tool calls, retries and transport notes as status lines), which ends
// done, stopped or failed; a sendable reply is counted and its reported usage recorded. What the
// loop does next is the outcome: done, failed, or the reply's entry with a reason to go on (its
// tool calls, a context overflow, a server that refused tools).
//
// Ownership: while it streams, this module is the only writer of the reply entry it creates (its
// text, tool calls, status, stop reason and error); once it returns, the entry is the session's.
// The session calls it from its loop only, one request at a time. Plain function, no DOM.
import { prepareMessage } from '../core/compact';
import { type AssistantMessage, type ChatMessage, newMessageId } from '../core/messages';
import type { ProviderError } from '../providers/errors';
import type { ChatProvider, ChatRequest, ProviderUsage } from '../providers/types';
import type { Emitter } from './emitter';
import type { EntryLog } from './entry-log';
import { type MessageEntry, isSendable } from './entries';
import type { SessionEvents } from './session-types';
import type { CompactChatSettings } from './settings';
import { type ToolLoop, isToolRefusal } from './tool-loop';
import type { TrackerSync } from './tracker-sync';

export type StreamOutcome = { kind: 'done' | 'failed' } | { kind: 'overflow' | 'tools' | 'no-tools'; entry: MessageEntry };

/** What one request needs from the session it serves. */
export interface ReplyStreamHost {
  readonly events: Emitter<SessionEvents>;
  readonly count: TrackerSync;
  /** The messages the request carries, as sent. */
  sentMessages(): ChatMessage[];
  systemPrompt(): string;
  /** The tool definitions the request carries (`definitions`). */
  readonly tools: ToolLoop;
  windowOf(settings: CompactChatSettings): number;
  provider(settings: CompactChatSettings): ChatProvider;
  apiKey(settings: CompactChatSettings): string | undefined;
  readonly entries: EntryLog;
  meterChanged(): void;
  now(): number;
}

/** Sends one request and streams its reply into a new entry; see the module comment. */
export async function streamReply(host: ReplyStreamHost, settings: CompactChatSettings, signal: AbortSignal): Promise<StreamOutcome> {
  const sent = host.sentMessages();
  const through = sent[sent.length - 1];
  const window = host.windowOf(settings);
  const tools = host.tools.definitions;
  const request: ChatRequest = {
    model: settings.model.trim(),
    systemPrompt: host.systemPrompt(),
    messages: sent,
    ...(tools.length ? { tools } : {}),
    contextWindow: window,
    ...(settings.replyReserve > 0 ? { maxOutputTokens: settings.replyReserve } : {}),
  };
  const estimateAtRequest = host.count.tracker.estimated();
  const reply: AssistantMessage = { id: newMessageId(), createdAt: host.now(), role: 'assistant', content: '' };
  const entry: MessageEntry = { kind: 'message', id: reply.id, message: reply, status: 'streaming', model: request.model };
  host.entries.push(entry);

  const provider = host.provider(settings);
  const apiKey = host.apiKey(settings);
  const events = host.events;
  let usage: ProviderUsage | null = null;
  let failure: ProviderError | null = null;
  for await (const event of provider.stream(request, { signal, ...(apiKey ? { apiKey } : {}) })) {
    switch (event.type) {
      case 'text':
        reply.content += event.delta;
        events.emit('delta', { entry, delta: event.delta });
        break;
      case 'tool-call':
        // Recorded on the reply; run after the reply ends (the tool loop). A call left without a
        // result (tools off, stopped) is paired with an error result by the provider layer.
        reply.toolCalls = [...(reply.toolCalls ?? []), event.call];
        events.emit('entry', entry);
        break;
      case 'usage':
        usage = event.usage;
        break;
      case 'retry':
        events.emit('status', `${event.reason} Retrying in ${Math.ceil(event.delayMs / 1000)} s (attempt ${event.attempt} of ${event.maxRetries}).`);
        break;
      case 'transport':
        events.emit('status', event.mode === 'requestUrl' ? `The reply will arrive all at once: ${event.reason ?? 'streaming is not available.'}` : '');
        break;
      case 'done':
        entry.status = 'done';
        entry.stopReason = event.stopReason;
        break;
      case 'error':
        failure = event.error;
        break;
    }
  }
  // "New chat" while this reply streamed: the entry belongs to a conversation that is gone.
  if (!host.entries.holds(entry)) return { kind: 'done' };
  if (failure) {
    if (failure.partialText && !reply.content) reply.content = failure.partialText;
    if (failure.kind === 'aborted') {
      entry.status = 'stopped';
    } else {
      entry.status = 'error';
      entry.error = { kind: failure.kind, message: failure.message, ...(failure.availableModels?.length ? { availableModels: failure.availableModels } : {}) };
    }
  } else if (entry.status === 'streaming') {
    entry.status = 'done';
  }
  if (isSendable(entry)) {
    host.count.tracker.append(reply);
    if (usage) host.count.record(settings, usage, through, reply, estimateAtRequest, window);
  }
  if (failure && tools.length && isToolRefusal(failure)) return { kind: 'no-tools', entry };
  events.emit('entry', entry);
  host.meterChanged();
  // Read for compaction now, as the tracker counted it: the compaction before a later request
  // then ranks and renders without reading every message again.
  if (isSendable(entry)) prepareMessage(reply);
  if (failure?.kind === 'context-overflow') return { kind: 'overflow', entry };
  if (!failure && tools.length && reply.toolCalls?.length) return { kind: 'tools', entry };
  return { kind: failure && failure.kind !== 'aborted' ? 'failed' : 'done' };
}
