// One conversation and the loop around every request: update the token tracker, compact when the
// compaction point or the message-count limit is crossed (micro-compaction first, then full
// compaction with the `<previous_context>` block and the restored notes), send, stream the reply
// in, and re-anchor the tracker on the usage the provider reports. Plain class, no DOM, no
// `obsidian`: the view renders what it exposes and forwards the user's actions.
//
// Nothing is ever deleted by compaction: `entries` keeps every message; what compaction changes is
// only what is *sent* (the messages after the latest boundary, old tool results replaced by their
// placeholders, the system prompt with the block and the notes).
import { compact, prepareMessage } from '../core/compact';
import { estimateMessageTokens, estimateSystemPromptTokens } from '../core/message-tokens';
import { type AssistantMessage, type ChatMessage, type ToolCall, type ToolDefinition, type ToolResultMessage, type UserMessage, newMessageId } from '../core/messages';
import { microCompact } from '../core/micro-compact';
import { contextWindowFor } from '../core/models';
import { type CutOptions, selectCut } from '../core/cut';
import { estimateTokens } from '../core/tokens';
import { TokenTracker } from '../core/tracker';
import { type TriggerReason, planCompaction, shouldCompact } from '../core/triggers';
import type { ProviderError } from '../providers/errors';
import type { ChatProvider, ChatRequest, ProviderUsage } from '../providers/types';
import type { SavedItem } from './conversation-format';
import { Emitter } from './emitter';
import { type ChatEntry, type ChatError, type CompactionCause, type CompactionState, type MessageEntry, type NoticeEntry, compactionNoticeText, isSendable } from './entries';
import { plural } from './format';
import { type MeterFigures, meterFigures } from './meter';
import { EMPTY_RESTORED, type RestoredNotes, attachNotes, linkedNotes, restoreCandidates, restoreNotes } from './restore';
import { fromSaved, toSaved } from './session-persistence';
import { EMPTY_PARTS, MENTIONED_NOTES, type SystemParts, activeNoteBlock, composeSystemPrompt, mentionedPaths } from './system-prompt';
import { type CompactChatSettings, compactionPointFor, modelOf } from './settings';
import type { NoteSource } from './vault-access';

export type CompactOutcome =
  | { kind: 'compacted'; state: CompactionState }
  | { kind: 'micro'; cleared: string[]; tokensSaved: number }
  | { kind: 'skipped'; reason: 'nothing-to-compact' | 'no-shrink'; message: string };

export interface SessionEvents extends Record<string, unknown> {
  /** Entries were added, removed or replaced: re-render the list. */
  entries: readonly ChatEntry[];
  /** One entry changed (status, error, final content). */
  entry: ChatEntry;
  /** Text arrived for a streaming reply. */
  delta: { entry: MessageEntry; delta: string };
  busy: boolean;
  /** Transient status line: a retry wait, a non-streaming fallback ('' clears it). */
  status: string;
  compaction: CompactionState;
  /** The list of applied rounds changed (a compaction, an undo, a new chat): the panel re-renders. */
  compactions: readonly CompactionState[];
  'compaction-skipped': { reason: string; message: string };
  meter: MeterFigures;
}

export interface SessionDeps {
  settings(): CompactChatSettings;
  /** The provider for these settings (the caller may cache it). */
  provider(settings: CompactChatSettings): ChatProvider;
  /** The API key, read from SecretStorage at call time; never kept by the session. */
  apiKey(settings: CompactChatSettings): string | undefined;
  notes: NoteSource;
  /** Tools the model may call (the vault tools); none when absent. */
  tools?: ToolRunner;
  now?(): number;
  /** Runs a task soon, without holding up the UI (main.ts: a timer the plugin registers). Used to
   * read a loaded conversation's messages for compaction in chunks; without it they are read by
   * their first compaction. */
  later?: (task: () => void) => void;
}

/** Messages of a loaded conversation read for compaction per `later` task. */
const PREPARE_CHUNK = 100;

/** The tools the session offers the model and runs for it. */
export interface ToolRunner {
  definitions(): ToolDefinition[];
  /** Runs one call; never throws (a failure is an error result the model reads). */
  run(call: ToolCall, signal: AbortSignal): Promise<{ content: string; isError?: boolean }>;
}

/** Tool rounds (reply → tool results → reply) one send may take before the session stops asking. */
export const MAX_TOOL_ROUNDS = 8;

export class ChatSession {
  readonly events = new Emitter<SessionEvents>();
  private entryList: ChatEntry[] = [];
  private readonly compactionList: CompactionState[] = [];
  /** Counts loads and clears, so reading a loaded conversation ahead stops when it is replaced. */
  private loads = 0;
  /** Sent content of micro-compacted tool results, by message id. */
  private readonly cleared = new Map<string, string>();
  private tracker = new TokenTracker();
  private trackerModel: string | undefined;
  private parts: SystemParts = EMPTY_PARTS;
  private restored: RestoredNotes = EMPTY_RESTORED;
  private controller: AbortController | null = null;
  private lastUsage: ProviderUsage | null = null;
  private lastSkip = '';
  /** Set by an undo: the next request does not compact automatically while the prompt still fits
   * the window (the user just asked for the longer prompt). Cleared by that request. */
  private holdAutoCompaction = false;
  /** Set for a conversation loaded from a note that could not be read in full: nothing is sent. */
  private readOnlyReason: string | null = null;
  /** Models whose server refused a request with tools: later requests go without them. */
  private readonly noToolModels = new Set<string>();
  /** The tool definitions sent with the next request ([] when tools are off). */
  private tools: ToolDefinition[] = [];

  constructor(private readonly deps: SessionDeps) {
    this.syncTracker(deps.settings());
  }

  // ── what the view reads ───────────────────────────────────────────────────────────────────

  get entries(): readonly ChatEntry[] {
    return this.entryList;
  }

  /** Every message of the conversation, compacted or not (the transcript). */
  get messages(): ChatMessage[] {
    return this.messageEntries().map((e) => e.message);
  }

  /** The compaction rounds applied so far, oldest first (for the summary panel). */
  get compactions(): readonly CompactionState[] {
    return this.compactionList;
  }

  get busy(): boolean {
    return this.controller !== null;
  }

  /** The messages the next request would carry, as sent (placeholders applied). */
  sentMessages(): ChatMessage[] {
    const boundary = this.boundaryIndex();
    const out: ChatMessage[] = [];
    this.entryList.forEach((entry, i) => {
      if (i < boundary || entry.kind !== 'message' || !isSendable(entry)) return;
      out.push(this.sentVersion(entry.message));
    });
    return out;
  }

  /** The system prompt the next request would carry (as of the last preparation). */
  systemPrompt(): string {
    return composeSystemPrompt(this.parts);
  }

  meter(): MeterFigures {
    const settings = this.deps.settings();
    const window = contextWindowFor(settings.model || undefined, settings.contextWindowOverride);
    const model = settings.model || undefined;
    return meterFigures({
      breakdown: this.tracker.breakdown(),
      window,
      compactionPoint: compactionPointFor(settings, window),
      parts: {
        base: estimateTokens(this.parts.base, model),
        previousContext: estimateTokens(this.parts.previousContext, model),
        restored: estimateTokens(this.parts.restored, model),
        activeNote: estimateTokens(this.parts.activeNote, model) + estimateTokens(this.parts.mentioned, model),
      },
      reported: this.lastUsage,
      sentMessages: this.sentMessages().length,
      messageLimit: settings.messageLimit,
    });
  }

  /** Why the user cannot send now, or null when they can. */
  disabledReason(): string | null {
    if (this.readOnlyReason) return this.readOnlyReason;
    const settings = this.deps.settings();
    if (!modelOf(settings)) return 'Choose a model in the plugin settings to start chatting.';
    return null;
  }

  /** Why "Compact now" cannot run now (busy, or nothing lies before the part that is always
   * kept), or null when it can. The same cut the compaction would use, without compacting. */
  compactNowBlocker(): string | null {
    if (this.busy) return 'Wait for the reply to finish.';
    const settings = this.deps.settings();
    const sent = this.sentOriginals();
    if (!sent.length) return this.compactionList.length ? 'Nothing new to compact since the last compaction.' : 'Nothing to compact: the conversation is empty.';
    const plan = planCompaction(sent, { manual: true }, this.cutOptions(settings));
    if (plan.action !== 'nothing-to-compact') return null;
    return this.compactionList.length ? 'Nothing new to compact: only the latest exchanges are sent verbatim, and they are always kept.' : plan.message;
  }

  /** Why the last compaction cannot be undone now, or null when it can. */
  undoBlocker(): string | null {
    if (!this.compactionList.length) return 'No compaction to undo.';
    if (this.busy) return 'Wait for the reply to finish.';
    return null;
  }

  /** Whether a message can be edited and resent / regenerated: it must still be sent verbatim. */
  canRewrite(id: string): boolean {
    const index = this.indexOf(id);
    return index >= 0 && index >= this.boundaryIndex() && !this.busy && this.readOnlyReason === null;
  }

  // ── what the user does ────────────────────────────────────────────────────────────────────

  /** Sends a user message and streams the reply. Resolves when the reply has finished. */
  async send(text: string): Promise<void> {
    const content = text.trim();
    if (!content || this.busy || this.readOnlyReason) return;
    this.appendUser(content);
    await this.respond();
  }

  /** Stops the reply being streamed; the partial reply is kept and marked as stopped. */
  stop(): void {
    this.controller?.abort();
  }

  /** Replaces a reply (or a failed turn) with a new one. */
  async regenerate(id: string): Promise<void> {
    const index = this.indexOf(id);
    const entry = this.entryList[index];
    if (!entry || entry.kind !== 'message' || entry.message.role !== 'assistant' || !this.canRewrite(id)) return;
    this.truncate(index);
    await this.respond();
  }

  /** Retries the failed turn `id` (an error entry): the same as regenerating it. */
  async retry(id: string): Promise<void> {
    await this.regenerate(id);
  }

  /** Replaces a user message (and everything after it) with `text`, then sends it. */
  async editAndResend(id: string, text: string): Promise<void> {
    const index = this.indexOf(id);
    const entry = this.entryList[index];
    const content = text.trim();
    if (!content || !entry || entry.kind !== 'message' || entry.message.role !== 'user' || !this.canRewrite(id)) return;
    this.truncate(index);
    this.appendUser(content);
    await this.respond();
  }

  /** "Compact now": compacts whatever lies before the kept part, with an optional focus. */
  async compactNow(focus?: string): Promise<CompactOutcome> {
    if (this.busy) return { kind: 'skipped', reason: 'nothing-to-compact', message: 'Wait for the reply to finish.' };
    const settings = this.deps.settings();
    await this.refreshParts(settings);
    return this.compactInternal(settings, ['manual'], { force: true, focus });
  }

  /**
   * Undoes the latest compaction round: its record is dropped, so the boundary moves back to the
   * previous round's (or to the start) and what is sent is again the previous round's block and
   * restored notes (or none) with the messages that round removed, its micro-compacted tool
   * results restored. Nothing was deleted, so nothing is read back from anywhere: the next request
   * body is what it would have been before that compaction. Returns the undone round, or null.
   */
  undoLastCompaction(): CompactionState | null {
    if (this.undoBlocker() !== null) return null;
    const undone = this.compactionList.pop();
    if (!undone) return null;
    const previous = this.compactionList[this.compactionList.length - 1] ?? null;
    for (const id of undone.microCleared) this.cleared.delete(id);
    this.restored = previous?.restored ?? EMPTY_RESTORED;
    this.parts = { ...this.parts, previousContext: previous?.record.block ?? '', restored: this.restored.block };
    // The messages the round removed are counted again (O(what is sent), like a rewrite).
    this.tracker.setModel(this.trackerModel, this.sentMessages(), composeSystemPrompt(this.parts), this.tools);
    this.holdAutoCompaction = true;
    this.lastSkip = '';
    const index = this.entryList.findIndex((e) => e.kind === 'notice' && e.compaction === undone);
    const notice = this.entryList[index];
    if (notice?.kind === 'notice') this.entryList[index] = { ...notice, undone: true };
    const n = undone.record.removedIds.length;
    this.pushNotice(
      'info',
      `Undid compaction round ${undone.record.round}: ${plural(n, 'message')} ${n === 1 ? 'is' : 'are'} sent again${previous ? `, with round ${previous.record.round}'s summary` : ''}.`,
    );
    this.events.emit('compactions', this.compactionList);
    this.emitMeter();
    return undone;
  }

  /** Starts over: the conversation, its compactions and the tracker are cleared. */
  clear(): void {
    this.stop();
    this.loads++;
    this.entryList = [];
    this.compactionList.length = 0;
    this.cleared.clear();
    this.restored = EMPTY_RESTORED;
    this.parts = { ...this.parts, previousContext: '', restored: '', mentioned: '' };
    this.readOnlyReason = null;
    this.lastUsage = null;
    this.lastSkip = '';
    this.holdAutoCompaction = false;
    this.tracker = new TokenTracker();
    this.trackerModel = undefined;
    this.syncTracker(this.deps.settings());
    this.events.emit('entries', this.entryList);
    this.events.emit('compactions', this.compactionList);
    this.emitMeter();
  }

  /** The conversation as saved: every message and every applied compaction round, in order (see
   * session-persistence.ts: a failed reply is kept when it produced text, marked how it ended). */
  toSaved(): SavedItem[] {
    return toSaved(this.entryList, this.compactionList, this.cleared);
  }

  /**
   * Replaces the conversation with a saved one, compaction state included: the boundary, the
   * block and restored notes sent, the micro-compacted results. With `readOnly` (a note that could
   * not be read in full) the messages are shown but nothing can be sent or rewritten.
   */
  load(items: readonly SavedItem[], readOnly: string | null = null): void {
    this.clear();
    const saved = fromSaved(items);
    this.entryList = saved.entries;
    this.compactionList.push(...saved.compactions);
    for (const [id, text] of saved.cleared) this.cleared.set(id, text);
    const last = this.compactionList[this.compactionList.length - 1];
    this.restored = last?.restored ?? EMPTY_RESTORED;
    this.parts = { ...this.parts, previousContext: last?.record.block ?? '', restored: this.restored.block };
    this.readOnlyReason = readOnly;
    this.tracker.setModel(this.trackerModel, this.sentMessages(), composeSystemPrompt(this.parts), this.tools);
    this.events.emit('entries', this.entryList);
    this.events.emit('compactions', this.compactionList);
    this.emitMeter();
    this.prepareLoaded();
  }

  /** Reads the loaded messages for compaction a chunk at a time, as new messages are read when
   * they arrive; a later load or clear stops it. */
  private prepareLoaded(): void {
    const later = this.deps.later;
    if (!later) return;
    const load = this.loads;
    const messages = this.messageEntries().map((e) => e.message);
    let next = 0;
    const step = (): void => {
      if (load !== this.loads) return;
      const end = Math.min(messages.length, next + PREPARE_CHUNK);
      for (; next < end; next++) prepareMessage(messages[next] as ChatMessage);
      if (next < messages.length) later(step);
    };
    if (messages.length) later(step);
  }

  /** Why this conversation is read-only, or null. */
  get readOnly(): string | null {
    return this.readOnlyReason;
  }

  /** Settings changed: the next request uses them; the meter shows them now. */
  settingsChanged(): void {
    this.syncTracker(this.deps.settings());
    this.emitMeter();
  }

  /** Aborts the stream (plugin unload). */
  dispose(): void {
    this.stop();
  }

  // ── the loop ──────────────────────────────────────────────────────────────────────────────

  private async respond(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.events.emit('busy', true);
    try {
      const settings = this.deps.settings();
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
        const outcome = await this.streamReply(settings, controller.signal);
        if (outcome.kind === 'no-tools') {
          // The server refused tools for this model: send the same request without them.
          this.removeEntry(outcome.entry);
          this.noToolModels.add(settings.model.trim());
          this.syncTracker(settings);
          this.pushNotice('info', `The server does not accept tools for ${settings.model.trim()}: chatting without vault tools.`);
          continue;
        }
        if (outcome.kind === 'tools') {
          if (toolRounds >= MAX_TOOL_ROUNDS) {
            this.pushNotice('warning', `Stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls in one reply. Send a message to continue.`);
            return;
          }
          toolRounds++;
          await this.runTools(outcome.entry, controller.signal);
          if (controller.signal.aborted) return;
          // Tool results can be long: refresh the notes and compact if a trigger fires.
          await this.prepare(settings);
          continue;
        }
        if (outcome.kind !== 'overflow' || overflowRetried) return;
        overflowRetried = true;
        // The server says the prompt is too long: compact once more, then retry once.
        const result = await this.compactInternal(settings, ['overflow'], { force: true });
        if (result.kind === 'skipped') return;
        this.removeEntry(outcome.entry);
      }
    } catch (error) {
      this.pushFailure({ kind: 'unexpected', message: `Something went wrong: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      this.controller = null;
      this.events.emit('status', '');
      this.events.emit('busy', false);
      this.emitMeter();
    }
  }

  /** Before every request: refresh the system prompt, then compact if a trigger fires. */
  private async prepare(settings: CompactChatSettings): Promise<void> {
    await this.refreshParts(settings);
    const decision = this.decide(settings);
    const hold = this.holdAutoCompaction;
    this.holdAutoCompaction = false;
    // Just after an undo, the longer prompt is what the user asked for, as long as it fits.
    if (hold && this.tracker.total() + settings.replyReserve <= this.windowOf(settings)) return;
    if (decision.fire) await this.compactInternal(settings, decision.reasons, { force: false });
  }

  private decide(settings: CompactChatSettings): { fire: boolean; reasons: TriggerReason[] } {
    const window = this.windowOf(settings);
    return shouldCompact({
      promptTokens: this.tracker.total(),
      compactionPoint: compactionPointFor(settings, window),
      messageCount: this.sentMessages().length,
      messageLimit: settings.messageLimit,
    });
  }

  private async streamReply(
    settings: CompactChatSettings,
    signal: AbortSignal,
  ): Promise<{ kind: 'done' | 'failed' } | { kind: 'overflow' | 'tools' | 'no-tools'; entry: MessageEntry }> {
    const sent = this.sentMessages();
    const through = sent[sent.length - 1];
    const window = this.windowOf(settings);
    const tools = this.tools;
    const request: ChatRequest = {
      model: settings.model.trim(),
      systemPrompt: this.systemPrompt(),
      messages: sent,
      ...(tools.length ? { tools } : {}),
      contextWindow: window,
      ...(settings.replyReserve > 0 ? { maxOutputTokens: settings.replyReserve } : {}),
    };
    const estimateAtRequest = this.tracker.estimated();
    const reply: AssistantMessage = { id: newMessageId(), createdAt: this.now(), role: 'assistant', content: '' };
    const entry: MessageEntry = { kind: 'message', id: reply.id, message: reply, status: 'streaming', model: request.model };
    this.entryList.push(entry);
    this.events.emit('entries', this.entryList);

    const provider = this.deps.provider(settings);
    const apiKey = this.deps.apiKey(settings);
    let usage: ProviderUsage | null = null;
    let failure: ProviderError | null = null;
    for await (const event of provider.stream(request, { signal, ...(apiKey ? { apiKey } : {}) })) {
      switch (event.type) {
        case 'text':
          reply.content += event.delta;
          this.events.emit('delta', { entry, delta: event.delta });
          break;
        case 'tool-call':
          // Recorded on the reply; run after the reply ends (runTools). A call left without a
          // result (tools off, stopped) is paired with an error result by the provider layer.
          reply.toolCalls = [...(reply.toolCalls ?? []), event.call];
          this.events.emit('entry', entry);
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'retry':
          this.events.emit('status', `${event.reason} Retrying in ${Math.ceil(event.delayMs / 1000)} s (attempt ${event.attempt} of ${event.maxRetries}).`);
          break;
        case 'transport':
          this.events.emit('status', event.mode === 'requestUrl' ? `The reply will arrive all at once: ${event.reason ?? 'streaming is not available.'}` : '');
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
    if (!this.entryList.includes(entry)) return { kind: 'done' };
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
      this.tracker.append(reply);
      if (usage) this.recordUsage(usage, through, reply, estimateAtRequest);
    }
    if (failure && tools.length && isToolRefusal(failure)) return { kind: 'no-tools', entry };
    this.events.emit('entry', entry);
    this.emitMeter();
    // Read for compaction now, as the tracker counted it: the compaction before a later request
    // then ranks and renders without reading every message again.
    if (isSendable(entry)) prepareMessage(reply);
    if (failure?.kind === 'context-overflow') return { kind: 'overflow', entry };
    if (!failure && tools.length && reply.toolCalls?.length) return { kind: 'tools', entry };
    return { kind: failure && failure.kind !== 'aborted' ? 'failed' : 'done' };
  }

  /** Runs the tool calls of a reply in order and appends one result per call. */
  private async runTools(entry: MessageEntry, signal: AbortSignal): Promise<void> {
    const runner = this.deps.tools;
    const reply = entry.message;
    if (!runner || reply.role !== 'assistant') return;
    for (const call of reply.toolCalls ?? []) {
      const outcome = signal.aborted ? { content: 'The user stopped the reply before this tool ran.', isError: true } : await runner.run(call, signal);
      if (!this.entryList.includes(entry)) return;
      const message: ToolResultMessage = { id: newMessageId(), createdAt: this.now(), role: 'tool', toolCallId: call.id, name: call.name, content: outcome.content };
      if (outcome.isError) message.isError = true;
      this.entryList.push({ kind: 'message', id: message.id, message, status: 'done' });
      this.tracker.append(message);
      this.events.emit('entries', this.entryList);
      prepareMessage(message);
    }
    this.emitMeter();
  }

  private recordUsage(usage: ProviderUsage, through: ChatMessage | undefined, reply: AssistantMessage, estimateAtRequest: number): void {
    this.lastUsage = usage;
    if (!through) return;
    // Ollama may leave KV-cached prefix tokens out of its count: a figure below our own estimate
    // could then under-count the prompt, so only a figure at or above it re-anchors.
    if (usage.promptTokensLowerBound && usage.promptTokens < estimateAtRequest) return;
    this.tracker.recordUsage(usage, through.id, reply);
  }

  // ── compaction ────────────────────────────────────────────────────────────────────────────

  private async compactInternal(
    settings: CompactChatSettings,
    causes: CompactionCause[],
    options: { force: boolean; focus?: string | undefined },
  ): Promise<CompactOutcome> {
    const model = modelOf(settings);
    const promptBefore = this.tracker.total();

    // 1. Micro-compaction: old bulky tool results become placeholders in what is sent.
    let microCleared: string[] = [];
    if (settings.microCompaction && !causes.includes('messages')) {
      const sent = this.sentMessages();
      const micro = microCompact(sent, { keepRecentUnits: Math.max(4, settings.keepExchanges * 2), model });
      if (micro.clearedIds.length) {
        microCleared = micro.clearedIds;
        for (const message of micro.messages) {
          if (!micro.clearedIds.includes(message.id)) continue;
          this.cleared.set(message.id, message.content);
          this.tracker.update(message);
        }
        if (!options.force && !this.decide(settings).fire) {
          const outcome: CompactOutcome = { kind: 'micro', cleared: micro.clearedIds, tokensSaved: micro.tokensSaved };
          this.pushNotice('info', `Cleared ${plural(micro.clearedIds.length, 'old tool result')} to save about ${micro.tokensSaved.toLocaleString('en-US')} tokens.`);
          this.emitMeter();
          return outcome;
        }
      }
    }

    // 2. Full compaction at a cut between whole units of what is still sent.
    const all = this.messageEntries().filter(isSendable).map((e) => e.message);
    const sentOriginals = this.sentOriginals();
    const offset = all.length - sentOriginals.length;
    const cutOptions = this.cutOptions(settings);
    const tokensOf = cutOptions.tokensOf ?? ((m: ChatMessage): number => estimateMessageTokens(m, model));
    const cut = selectCut(sentOriginals, cutOptions);
    if (!cut.ok) return this.skip('nothing-to-compact', cut.message, microCleared);

    const previous = this.compactionList[this.compactionList.length - 1]?.record ?? null;
    const trigger = causes[0] === 'overflow' ? 'tokens' : (causes[0] ?? 'unknown');
    const result = compact(all, {
      budgetTokens: settings.contextBudget,
      cut: offset + cut.index,
      previous,
      ...(options.focus ? { focus: options.focus } : {}),
      ...(model ? { model } : {}),
      now: this.now(),
      trigger,
      tokensOf,
    });
    if (!result.ok) return this.skip('nothing-to-compact', result.message, microCleared);
    if (result.unchanged) return this.skip('nothing-to-compact', 'Nothing new to compact.', microCleared);

    // 3. Re-read the notes the removed part worked with.
    const activePath = settings.includeActiveNote ? this.parts.activeNotePath : null;
    const candidates = restoreCandidates(result.removed, result.record, this.deps.notes, activePath).filter(
      // The active note is attached on its own when it is included.
      (path) => path !== activePath || !this.parts.activeNote,
    );
    // Restored notes only fill the room left below the compaction point: notes that pushed the
    // prompt straight back over it would make the compaction useless (or refused as no-shrink).
    const removedTokens = result.removed.reduce((sum, m) => sum + (this.tracker.messageTokens(m.id) ?? 0), 0);
    const promptWith = (parts: SystemParts): number =>
      this.tracker.estimated() -
      removedTokens -
      estimateSystemPromptTokens(composeSystemPrompt(this.parts), model) +
      estimateSystemPromptTokens(composeSystemPrompt(parts), model);
    // Notes mentioned only by removed messages leave the mentioned block (they may come back as
    // restored notes, within their budget).
    const mentioned = await this.mentionedBlock(settings, this.parts.activeNote ? this.parts.activeNotePath : null, new Set(result.kept.map((m) => m.id)));
    const room = compactionPointFor(settings, this.windowOf(settings)) - promptWith({ ...this.parts, previousContext: result.block, mentioned, restored: '' });
    const restoreBudget = Math.max(0, Math.min(settings.restoredNotesBudget, room));
    const restored = await restoreNotes(candidates, this.deps.notes, restoreBudget, model);

    // 4. Apply only if the prompt shrinks (no compaction loops).
    const nextParts: SystemParts = { ...this.parts, previousContext: result.block, mentioned, restored: restored.block };
    const promptAfter = promptWith(nextParts);
    const estimatedBefore = this.tracker.estimated();
    if (promptAfter >= estimatedBefore) {
      return this.skip(
        'no-shrink',
        `Compaction was not applied: it would not shrink the prompt (${estimatedBefore.toLocaleString('en-US')} → ${promptAfter.toLocaleString('en-US')} tokens).`,
        microCleared,
      );
    }
    for (const m of result.removed) this.tracker.remove(m.id);
    this.parts = nextParts;
    this.restored = restored;
    this.tracker.setSystemPrompt(composeSystemPrompt(this.parts));
    const state: CompactionState = { record: result.record, causes, microCleared, restored, promptBefore, promptAfter: this.tracker.total() };
    this.compactionList.push(state);
    this.lastSkip = '';
    this.holdAutoCompaction = false;
    this.pushNotice('info', compactionNoticeText(state, result.removed.length), state);
    this.events.emit('compaction', state);
    this.events.emit('compactions', this.compactionList);
    this.emitMeter();
    return { kind: 'compacted', state };
  }

  private skip(reason: 'nothing-to-compact' | 'no-shrink', message: string, microCleared: string[]): CompactOutcome {
    // One warning until a compaction succeeds again, not one per request.
    const key = reason;
    if (key !== this.lastSkip) {
      this.lastSkip = key;
      const micro = microCleared.length ? ` Cleared ${plural(microCleared.length, 'old tool result')} instead.` : '';
      this.pushNotice('warning', message + micro);
    }
    this.events.emit('compaction-skipped', { reason, message });
    this.emitMeter();
    return { kind: 'skipped', reason, message };
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────

  /** Reads what the system prompt is made of now (settings, the active note) into the tracker. */
  private async refreshParts(settings: CompactChatSettings): Promise<void> {
    const notes = this.deps.notes;
    const activeNotePath = settings.includeActiveNote ? notes.activeNotePath() : null;
    const activeNote = activeNotePath ? await activeNoteBlock(notes, activeNotePath, settings.activeNoteBudget, modelOf(settings)) : '';
    const mentioned = await this.mentionedBlock(settings, activeNote ? activeNotePath : null);
    this.parts = { ...this.parts, base: settings.systemPrompt.trim(), activeNote, activeNotePath, mentioned };
    this.syncTracker(settings);
  }

  /** The notes mentioned by the user messages still sent, newest mention first, re-read now and
   * attached within `mentionBudget` ('' when there are none). */
  private async mentionedBlock(settings: CompactChatSettings, attachedActive: string | null, sentIds?: ReadonlySet<string>): Promise<string> {
    const sent = sentIds ?? new Set(this.sentOriginals().map((m) => m.id));
    const paths = mentionedPaths(this.messageEntries(), sent, attachedActive);
    return (await attachNotes(paths, this.deps.notes, settings.mentionBudget, MENTIONED_NOTES, modelOf(settings))).block;
  }

  private toolsFor(settings: CompactChatSettings): ToolDefinition[] {
    if (!settings.vaultTools || !this.deps.tools || this.noToolModels.has(settings.model.trim())) return [];
    return this.deps.tools.definitions();
  }

  private syncTracker(settings: CompactChatSettings): void {
    const model = modelOf(settings);
    this.parts = { ...this.parts, base: settings.systemPrompt.trim() };
    if (model !== this.trackerModel) {
      this.trackerModel = model;
      this.tools = this.toolsFor(settings);
      this.tracker.setModel(model, this.sentMessages(), composeSystemPrompt(this.parts), this.tools);
    } else {
      this.tracker.setSystemPrompt(composeSystemPrompt(this.parts));
      this.tools = this.toolsFor(settings);
      this.tracker.setTools(this.tools);
    }
  }

  private windowOf(settings: CompactChatSettings): number {
    return contextWindowFor(modelOf(settings), settings.contextWindowOverride);
  }

  private appendUser(content: string): void {
    const message: UserMessage = { id: newMessageId(), createdAt: this.now(), role: 'user', content };
    const mentions = linkedNotes(content, this.deps.notes);
    this.entryList.push({ kind: 'message', id: message.id, message, status: 'done', ...(mentions.length ? { mentions } : {}) });
    this.tracker.append(message);
    this.events.emit('entries', this.entryList);
    this.emitMeter();
    prepareMessage(message);
  }

  private pushFailure(error: ChatError): void {
    const message: AssistantMessage = { id: newMessageId(), createdAt: this.now(), role: 'assistant', content: '' };
    this.entryList.push({ kind: 'message', id: message.id, message, status: 'error', error });
    this.events.emit('entries', this.entryList);
  }

  private pushStopped(model: string): void {
    const message: AssistantMessage = { id: newMessageId(), createdAt: this.now(), role: 'assistant', content: '' };
    this.entryList.push({ kind: 'message', id: message.id, message, status: 'stopped', model });
    this.events.emit('entries', this.entryList);
  }

  private pushNotice(level: NoticeEntry['level'], text: string, compaction?: CompactionState): void {
    this.entryList.push({ kind: 'notice', id: newMessageId(), level, text, ...(compaction ? { compaction } : {}) });
    this.events.emit('entries', this.entryList);
  }

  private removeEntry(entry: ChatEntry): void {
    const index = this.entryList.indexOf(entry);
    if (index < 0) return;
    this.entryList.splice(index, 1);
    if (entry.kind === 'message') this.tracker.remove(entry.id);
    this.events.emit('entries', this.entryList);
  }

  /** Drops entry `index` and everything after it (a rewrite), and recounts what is sent. */
  private truncate(index: number): void {
    const dropped = this.entryList.splice(index);
    for (const entry of dropped) if (entry.kind === 'message') this.cleared.delete(entry.id);
    this.tracker.setModel(this.trackerModel, this.sentMessages(), composeSystemPrompt(this.parts), this.tools);
    this.events.emit('entries', this.entryList);
    this.emitMeter();
  }

  /** The cut options of a full compaction (shared by the compaction and "Compact now"'s check). */
  private cutOptions(settings: CompactChatSettings): CutOptions & { tokensOf: (m: ChatMessage) => number } {
    const model = modelOf(settings);
    const point = compactionPointFor(settings, this.windowOf(settings));
    return {
      keepExchanges: settings.keepExchanges,
      keepTokens: settings.keepTokens,
      // The part kept verbatim never takes more than half the room before the compaction point,
      // so a compaction always has something to remove when anything can be removed at all.
      maxKeepTokens: Math.max(1, Math.floor(point / 2)),
      ...(model ? { model } : {}),
      tokensOf: (m: ChatMessage): number => this.tracker.messageTokens(m.id) ?? estimateMessageTokens(m, model),
    };
  }

  /** The messages after the latest boundary that are sent, in their original (unplaceholdered) form. */
  private sentOriginals(): ChatMessage[] {
    const boundary = this.boundaryIndex();
    const out: ChatMessage[] = [];
    this.entryList.forEach((entry, i) => {
      if (i >= boundary && entry.kind === 'message' && isSendable(entry)) out.push(entry.message);
    });
    return out;
  }

  private messageEntries(): MessageEntry[] {
    return this.entryList.filter((e): e is MessageEntry => e.kind === 'message');
  }

  /** Index in `entries` of the first entry still sent: just after the latest round's boundary. */
  private boundaryIndex(): number {
    const through = this.compactionList[this.compactionList.length - 1]?.record.removedThrough;
    if (!through) return 0;
    const index = this.indexOf(through);
    return index < 0 ? 0 : index + 1;
  }

  private indexOf(id: string): number {
    return this.entryList.findIndex((e) => e.id === id);
  }

  private sentVersion(message: ChatMessage): ChatMessage {
    const placeholder = this.cleared.get(message.id);
    if (placeholder === undefined || message.role !== 'tool') return message;
    const sent: ToolResultMessage = { ...message, content: placeholder };
    return sent;
  }

  private emitMeter(): void {
    this.events.emit('meter', this.meter());
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }
}

/** Whether the server refused the request because of its tools (a model without tool support:
 * Ollama says "… does not support tools", OpenAI-compatible servers name `tools` or `tool_choice`). */
function isToolRefusal(error: ProviderError): boolean {
  if (error.kind === 'aborted' || error.kind === 'context-overflow' || error.kind === 'auth' || error.kind === 'connection' || error.kind === 'timeout') return false;
  return /\btools?\b|tool[_ ]choice|function calling/i.test(`${error.message} ${error.detail ?? ''}`);
}
