// One conversation and the loop around every request: update the token tracker, ask the
// compaction control before every request (a send and every tool-loop continuation; it owns the
// rounds, undo and "Compact now", and asks the policy in src/core/policy.ts), send, stream the
// reply in, run the tools it asks for, and re-anchor the tracker on the usage the provider reports.
// The system prompt's parts are the context assembly's. Plain class, no DOM, no `obsidian`: the
// view renders what it exposes and forwards the user's actions.
//
// Nothing is ever deleted by compaction: `entries` keeps every message; what compaction changes is
// only what is *sent* (the messages after the latest boundary and the latest user message, old
// tool results replaced by their placeholders, the system prompt with the block and the notes).
import { prepareMessage } from '../core/compact';
import { estimateMessageTokens } from '../core/message-tokens';
import { type AssistantMessage, type ChatMessage, type ToolCall, type ToolDefinition, type ToolResultMessage, type UserMessage, newMessageId } from '../core/messages';
import type { EditableSection, LineEdit } from '../core/edits';
import { keptRoom, oversizedBy } from '../core/policy';
import { TokenTracker } from '../core/tracker';
import type { ProviderError } from '../providers/errors';
import type { ChatProvider, ChatRequest, ProviderUsage } from '../providers/types';
import { CompactionControl, type CompactOutcome } from './compaction-control';
import { ContextAssembly } from './context-assembly';
import type { SavedItem } from './conversation-format';
import { Emitter } from './emitter';
import { HISTORY_TOOL_DEFINITION, SEARCH_HISTORY } from '../core/search-history';
import { HistorySearch } from './history-tool';
import { type ChatEntry, type ChatError, type CompactionState, type MessageEntry, type NoticeEntry, isSendable } from './entries';
import { type MeterFigures, meterFigures } from './meter';
import { fitText, linkedNotes } from './restore';
import { fromSaved, toSaved } from './session-persistence';
import { type CompactChatSettings, budgetsFor, modelOf, windowFor } from './settings';
import type { NoteSource } from './vault-access';

export type { CompactOutcome } from './compaction-control';

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

/** What became of a send: sent (the reply has finished), ignored (empty, busy, read-only), or held
 * back because the message is too big for the window (`tokens` estimated, `limit` what fits). */
export type SendOutcome = { kind: 'sent' } | { kind: 'ignored' } | { kind: 'oversized'; tokens: number; limit: number };

/** The line that ends a message trimmed to fit, and the room it takes. */
const trimMark = (tokens: number): string => `[Trimmed to fit the context window: the full text was about ${tokens.toLocaleString('en-US')} tokens.]`;
const TRIM_MARK_TOKENS = 40;

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
  /** Counts loads and clears, so reading a loaded conversation ahead stops when it is replaced. */
  private loads = 0;
  private tracker = new TokenTracker();
  private trackerModel: string | undefined;
  /** The system prompt's parts: settings prompt, block, restored, active and mentioned notes. */
  private readonly context: ContextAssembly;
  /** The compaction rounds, the policy calls, undo and "Compact now". */
  private readonly control: CompactionControl;
  private controller: AbortController | null = null;
  private lastUsage: ProviderUsage | null = null;
  /** Set for a conversation loaded from a note that could not be read in full: nothing is sent. */
  private readOnlyReason: string | null = null;
  /** Models whose server refused a request with tools: later requests go without them. */
  private readonly noToolModels = new Set<string>();
  /** The tool definitions sent with the next request ([] when tools are off). */
  private tools: ToolDefinition[] = [];
  /** The compacted messages, searchable by the model with the history tool. */
  private readonly history = new HistorySearch();

  constructor(private readonly deps: SessionDeps) {
    this.context = new ContextAssembly(deps.notes);
    this.control = new CompactionControl({
      context: this.context,
      tracker: () => this.tracker,
      windowOf: (settings) => this.windowOf(settings),
      sendable: () => this.sendableEntries().map((e) => e.message),
      pinned: () => new Set(this.sendableEntries().filter((e) => e.pinned).map((e) => e.id)),
      mentions: () => this.messageEntries(),
      toolTokens: () => this.tracker.breakdown().tools,
      recount: () => this.recount(),
      notice: (level, text, compaction) => this.pushNotice(level, text, compaction),
      compacted: (state) => this.events.emit('compaction', state),
      roundsChanged: (rounds) => {
        this.events.emit('compactions', rounds);
        this.emitMeter();
      },
      skipped: (reason, message) => {
        this.events.emit('compaction-skipped', { reason, message });
        this.emitMeter();
      },
      now: () => this.now(),
    });
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
    return this.control.rounds;
  }

  get busy(): boolean {
    return this.controller !== null;
  }

  /** The messages the next request would carry, as sent (placeholders applied). */
  sentMessages(): ChatMessage[] {
    return this.sentOriginals().map((m) => this.control.sentVersion(m));
  }

  /** The system prompt the next request would carry (as of the last preparation). */
  systemPrompt(): string {
    return this.context.systemPrompt();
  }

  meter(): MeterFigures {
    const settings = this.deps.settings();
    const window = this.windowOf(settings);
    const model = modelOf(settings);
    return meterFigures({
      breakdown: this.tracker.breakdown(),
      window,
      compactionPoint: budgetsFor(settings, window).point,
      parts: this.context.partTokens(model),
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
    return this.control.blocker(this.busy, this.deps.settings());
  }

  /** Why the last compaction cannot be undone now, or null when it can. */
  undoBlocker(): string | null {
    if (!this.control.rounds.length) return 'No compaction to undo.';
    if (this.busy) return 'Wait for the reply to finish.';
    return null;
  }

  /** Whether a message can be edited and resent / regenerated: it must still be sent verbatim. */
  canRewrite(id: string): boolean {
    const index = this.indexOf(id);
    return index >= 0 && index >= this.boundaryIndex() && !this.busy && this.readOnlyReason === null;
  }

  /** Whether the user pinned this message. */
  isPinned(id: string): boolean {
    const entry = this.entryList[this.indexOf(id)];
    return entry?.kind === 'message' && entry.pinned === true;
  }

  /** Why the message cannot be pinned or unpinned now, or null when it can. */
  pinBlocker(id: string): string | null {
    const entry = this.entryList[this.indexOf(id)];
    if (entry?.kind !== 'message' || !isSendable(entry)) return 'Only a message that is sent can be pinned.';
    if (this.readOnlyReason) return this.readOnlyReason;
    if (this.busy) return 'Wait for the reply to finish.';
    return null;
  }

  /** Why the latest round's lines cannot be edited now, or null. */
  lineEditBlocker(): string | null {
    if (this.readOnlyReason) return this.readOnlyReason;
    if (this.busy) return 'Wait for the reply to finish.';
    return this.control.editBlocker();
  }

  /** Why the last edit of the summary cannot be undone now, or null. */
  lineEditUndoBlocker(): string | null {
    const blocker = this.lineEditBlocker();
    if (blocker) return blocker;
    const last = this.control.rounds[this.control.rounds.length - 1];
    return last?.record.edits?.length ? null : 'No edit of the summary to undo.';
  }

  // ── what the user does ────────────────────────────────────────────────────────────────────

  /**
   * Pins a message (always sent verbatim: no compaction removes it, nor the rest of its unit, so a
   * pinned tool call keeps its results) or unpins it. A message pinned when a round passed it and
   * unpinned later is still sent until the next round summarises it. Returns a warning when the
   * pinned messages alone take more room than a compaction can leave for what it keeps, else ''.
   */
  setPinned(id: string, pinned: boolean): { ok: boolean; message: string } {
    const blocker = this.pinBlocker(id);
    if (blocker) return { ok: false, message: blocker };
    const entry = this.entryList[this.indexOf(id)] as MessageEntry;
    if ((entry.pinned === true) === pinned) return { ok: true, message: '' };
    if (pinned) entry.pinned = true;
    else delete entry.pinned;
    // What is sent changed (a message before the boundary is sent again, or no longer).
    this.recount();
    this.syncTracker(this.deps.settings());
    this.events.emit('entry', entry);
    this.emitMeter();
    return { ok: true, message: pinned ? this.pinnedWarning() : '' };
  }

  /** A warning when the pinned messages alone take more than the room a compaction leaves the
   * messages it keeps in this window, else ''. */
  private pinnedWarning(): string {
    const settings = this.deps.settings();
    const model = modelOf(settings);
    const pins = this.control.keptVerbatim();
    let tokens = 0;
    for (const m of this.sendableEntries()) if (pins.has(m.id)) tokens += this.tracker.messageTokens(m.id) ?? estimateMessageTokens(m.message, model);
    const room = keptRoom(this.control.budgets(settings), this.context.fixedTokens(model, this.tracker.breakdown().tools));
    if (tokens <= room) return '';
    return `Pinned messages take about ${tokens.toLocaleString('en-US')} tokens, more than the ${Math.max(0, room).toLocaleString('en-US')} a compaction can leave for the messages it keeps in this window, so the prompt cannot get as small as compaction aims while they are pinned.`;
  }

  /**
   * Removes (`text` null or blank) or rewrites a line the latest compaction round carries. The
   * block is rendered again (the room a removed line frees goes to what ranked next) and sent from
   * the next request; the edit is saved with the round, carried by later rounds, and undone by
   * {@link undoLineEdit}. `message` warns when the rewritten line does not fit the block.
   */
  editCarriedLine(section: EditableSection, key: string, text: string | null): { ok: boolean; message: string } {
    const blocker = this.lineEditBlocker();
    if (blocker) return { ok: false, message: blocker };
    const outcome = this.control.editLine(this.deps.settings(), section, key, { text });
    this.emitMeter();
    return outcome;
  }

  /** Puts a removed or rewritten line of the latest round back as it was extracted. */
  restoreCarriedLine(section: EditableSection, key: string): { ok: boolean; message: string } {
    const blocker = this.lineEditBlocker();
    if (blocker) return { ok: false, message: blocker };
    const outcome = this.control.editLine(this.deps.settings(), section, key, { restore: true });
    this.emitMeter();
    return outcome;
  }

  /** Undoes the last edit of the latest round's lines; the step undone, or null. */
  undoLineEdit(): LineEdit | null {
    if (this.lineEditUndoBlocker() !== null) return null;
    const undone = this.control.undoEdit(this.deps.settings());
    this.emitMeter();
    return undone;
  }

  /**
   * Sends a user message and streams the reply; resolves when the reply has finished. A message
   * too big to be sent whole even after the fullest compaction is not sent: the outcome says by
   * how much, and the caller asks the user, then calls again with `oversized` 'send' (as it is)
   * or 'trim' (cut to fit, marked as trimmed).
   */
  async send(text: string, options: { oversized?: 'send' | 'trim' } = {}): Promise<SendOutcome> {
    let content = text.trim();
    if (!content || this.busy || this.readOnlyReason) return { kind: 'ignored' };
    const settings = this.deps.settings();
    const model = modelOf(settings);
    // The parts as of the last request (re-reading notes first would leave the view a moment
    // with the message neither sent nor busy).
    const fixed = this.context.fixedTokens(model, this.tracker.breakdown().tools, { mentioned: false });
    const budgets = this.control.budgets(settings);
    const tokens = estimateMessageTokens({ id: '', createdAt: 0, role: 'user', content }, model);
    const over = oversizedBy(budgets, fixed, tokens);
    if (over > 0 && options.oversized !== 'send') {
      const limit = tokens - over;
      if (options.oversized !== 'trim') return { kind: 'oversized', tokens, limit };
      content = `${fitText(content, Math.max(0, limit - TRIM_MARK_TOKENS), model)}\n\n${trimMark(tokens)}`;
    }
    this.appendUser(content);
    await this.respond();
    return { kind: 'sent' };
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
    const outcome = await this.control.compact(settings, ['manual'], { force: true, focus });
    this.syncTracker(settings);
    this.emitMeter();
    return outcome;
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
    const undone = this.control.undo();
    if (!undone) return null;
    this.syncTracker(this.deps.settings());
    const index = this.entryList.findIndex((e) => e.kind === 'notice' && e.compaction === undone);
    const notice = this.entryList[index];
    if (notice?.kind === 'notice') this.entryList[index] = { ...notice, undone: true };
    this.events.emit('entries', this.entryList);
    this.emitMeter();
    return undone;
  }

  /** Starts over: the conversation, its compactions and the tracker are cleared. */
  clear(): void {
    this.stop();
    this.loads++;
    this.entryList = [];
    this.control.reset();
    this.history.reset();
    this.readOnlyReason = null;
    this.lastUsage = null;
    this.tracker = new TokenTracker();
    this.trackerModel = undefined;
    this.syncTracker(this.deps.settings());
    this.events.emit('entries', this.entryList);
    this.events.emit('compactions', this.control.rounds);
    this.emitMeter();
  }

  /** The conversation as saved: every message and every applied compaction round, in order (see
   * session-persistence.ts: a failed reply is kept when it produced text, marked how it ended). */
  toSaved(): SavedItem[] {
    return toSaved(this.entryList, this.control.rounds, this.control.cleared);
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
    this.control.reset(saved.compactions, saved.cleared);
    this.readOnlyReason = readOnly;
    this.syncTracker(this.deps.settings());
    this.recount();
    this.events.emit('entries', this.entryList);
    this.events.emit('compactions', this.control.rounds);
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
        const result = await this.control.compact(settings, ['overflow'], { force: true });
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

  /** Before every request (a send and every tool-loop continuation): refresh the system prompt,
   * then ask the compaction policy. */
  private async prepare(settings: CompactChatSettings): Promise<void> {
    await this.refreshParts(settings);
    await this.control.beforeRequest(settings);
    // A round may have removed messages: the history tool and the block's line follow. Offering
    // the tool adds to the prompt the policy just sized, so it is asked once more then.
    const offered = this.tools.includes(HISTORY_TOOL_DEFINITION);
    this.syncTracker(settings);
    if (!offered && this.tools.includes(HISTORY_TOOL_DEFINITION)) {
      await this.control.beforeRequest(settings, { quiet: true });
      this.syncTracker(settings);
    }
    this.emitMeter();
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
      if (usage) this.recordUsage(settings, usage, through, reply, estimateAtRequest, window);
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
    const reply = entry.message;
    if (reply.role !== 'assistant') return;
    for (const call of reply.toolCalls ?? []) {
      const outcome = signal.aborted ? { content: 'The user stopped the reply before this tool ran.', isError: true } : await this.runTool(call, signal);
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

  /** One call: the history tool is the session's own; the rest go to the vault tools. */
  private async runTool(call: ToolCall, signal: AbortSignal): Promise<{ content: string; isError?: boolean }> {
    if (call.name === SEARCH_HISTORY) return this.history.run(call);
    if (!this.deps.tools) return { content: `Unknown tool "${call.name}".`, isError: true };
    return this.deps.tools.run(call, signal);
  }

  private recordUsage(settings: CompactChatSettings, usage: ProviderUsage, through: ChatMessage | undefined, reply: AssistantMessage, estimateAtRequest: number, window: number): void {
    if (settings.provider === 'ollama' && isTruncation(usage.promptTokens, estimateAtRequest, window)) {
      // Ollama drops the front of a prompt longer than num_ctx without a word. Its figure counts
      // what it kept, so it must not anchor the count: the meter goes back to the estimate, and
      // the next request compacts (the estimate is over the point).
      this.lastUsage = null;
      this.pushNotice(
        'warning',
        `The server cut the prompt: it read ${usage.promptTokens.toLocaleString('en-US')} of about ${estimateAtRequest.toLocaleString('en-US')} tokens (context size ${window.toLocaleString('en-US')}), so the reply did not see the start of the conversation. The next request is compacted to fit; a larger context size in the settings also helps if the model and memory allow it.`,
      );
      return;
    }
    this.lastUsage = usage;
    if (!through) return;
    // Ollama may leave KV-cached prefix tokens out of its count: a figure below our own estimate
    // could then under-count the prompt, so only a figure at or above it re-anchors.
    if (usage.promptTokensLowerBound && usage.promptTokens < estimateAtRequest) return;
    this.tracker.recordUsage(usage, through.id, reply);
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────

  /** Reads what the system prompt is made of now (settings, the active note, the mentioned notes)
   * into the tracker. */
  private async refreshParts(settings: CompactChatSettings): Promise<void> {
    await this.context.refresh(settings, this.messageEntries(), new Set(this.sentOriginals().map((m) => m.id)));
    this.syncTracker(settings);
  }

  /** The vault tools (when on), and the history tool while some messages are no longer sent. */
  private toolsFor(settings: CompactChatSettings): ToolDefinition[] {
    if (this.noToolModels.has(settings.model.trim())) return [];
    const vault = settings.vaultTools && this.deps.tools ? this.deps.tools.definitions() : [];
    return this.history.available(this.windowOf(settings)) ? [...vault, HISTORY_TOOL_DEFINITION] : vault;
  }

  /** The compacted messages (no longer sent as written, original text) that best match `query`,
   * best first: the compaction panel's search box, where the user asks. */
  searchCompacted(query: string, limit: number): ChatMessage[] {
    this.history.sync(this.unsentMessages());
    return this.history.find(query, limit, 'user');
  }

  /** How many messages `searchCompacted` searches. */
  compactedCount(): number {
    this.history.sync(this.unsentMessages());
    return this.history.size;
  }

  /** Messages that were sent once and are no longer sent as written: those before the boundary,
   * and the micro-compacted tool results (their original text). */
  private unsentMessages(): ChatMessage[] {
    if (!this.control.rounds.length && !this.control.cleared.size) return [];
    const sent = new Set(this.sentOriginals().map((m) => m.id));
    return this.sendableEntries()
      .map((e) => e.message)
      .filter((m) => !sent.has(m.id) || this.control.cleared.has(m.id));
  }

  private syncTracker(settings: CompactChatSettings): void {
    const model = modelOf(settings);
    this.context.setBase(settings);
    this.history.sync(this.unsentMessages());
    this.context.setSearchable(this.toolsFor(settings).includes(HISTORY_TOOL_DEFINITION));
    if (model !== this.trackerModel) {
      this.trackerModel = model;
      this.tools = this.toolsFor(settings);
      this.recount();
    } else {
      this.tracker.setSystemPrompt(this.context.systemPrompt());
      this.tools = this.toolsFor(settings);
      this.tracker.setTools(this.tools);
    }
  }

  private windowOf(settings: CompactChatSettings): number {
    return windowFor(settings);
  }

  private appendUser(content: string): void {
    this.control.releasePinned();
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
    this.control.forget(dropped.map((e) => e.id));
    this.recount();
    this.events.emit('entries', this.entryList);
    this.emitMeter();
  }

  /** Counts what is sent now from scratch (O(what is sent): a rewrite, an undo, a load). */
  private recount(): void {
    this.tracker.setModel(this.trackerModel, this.sentMessages(), this.context.systemPrompt(), this.tools);
  }

  /** Every message entry that is sent when not compacted (failed turns and empty replies aside). */
  private sendableEntries(): MessageEntry[] {
    return this.messageEntries().filter(isSendable);
  }

  /** The messages the next request carries, in their original (unplaceholdered) form. */
  private sentOriginals(): ChatMessage[] {
    return this.control.sent(this.sendableEntries(), (e) => e.message.role === 'user').map((e) => e.message);
  }

  private messageEntries(): MessageEntry[] {
    return this.entryList.filter((e): e is MessageEntry => e.kind === 'message');
  }

  /** Index in `entries` of the first entry still sent: just after the latest round's boundary. */
  private boundaryIndex(): number {
    const through = this.control.boundaryId();
    if (!through) return 0;
    const index = this.indexOf(through);
    return index < 0 ? 0 : index + 1;
  }

  private indexOf(id: string): number {
    return this.entryList.findIndex((e) => e.id === id);
  }

  private emitMeter(): void {
    this.events.emit('meter', this.meter());
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }
}

/** A reported prompt far below what was sent, when what was sent was over the window: the server
 * truncated it (a KV-cached prefix also lowers Ollama's count, but never past a prompt that fit). */
export function isTruncation(reported: number, estimated: number, window: number): boolean {
  return estimated > window && reported < estimated * 0.75;
}

/** Whether the server refused the request because of its tools (a model without tool support:
 * Ollama says "… does not support tools", OpenAI-compatible servers name `tools` or `tool_choice`). */
function isToolRefusal(error: ProviderError): boolean {
  if (error.kind === 'aborted' || error.kind === 'context-overflow' || error.kind === 'auth' || error.kind === 'connection' || error.kind === 'timeout') return false;
  return /\btools?\b|tool[_ ]choice|function calling/i.test(`${error.message} ${error.detail ?? ''}`);
}
