// One conversation, the public face of the chat layer: what the views read and what the user does
// (send, stop, regenerate, edit and resend, "Compact now", undo, pins, edits of the carried lines,
// new chat, load). The work is its parts': the entries (entry-log.ts); the loop of a send
// (request-loop.ts: the compaction control asked before every request, one request streamed in by
// reply-stream.ts, the tools run by tool-loop.ts); the compaction rounds (compaction-control.ts,
// which asks the policy in src/core/policy.ts); the count of what is sent (tracker-sync.ts); the
// system prompt's parts (context-assembly.ts); pins and carried-line edits (user-control.ts).
// Plain class, no DOM, no `obsidian`: the view renders what it exposes and forwards the user's
// actions.
//
// Ownership: the session creates its parts, wires them to each other through their host
// interfaces, and alone replaces the conversation (a new chat, a load) and its read-only reason;
// each part changes its own state only when the session or another part calls it.
//
// Nothing is ever deleted by compaction: `entries` keeps every message; what compaction changes is
// only what is *sent* (the messages after the latest boundary and the latest user message, old
// tool results replaced by their placeholders, the system prompt with the block and the notes).
import { prepareMessage } from '../core/compact';
import { estimateMessageTokens } from '../core/message-tokens';
import { type ChatMessage, type UserMessage, newMessageId } from '../core/messages';
import type { EditableSection, LineEdit } from '../core/edits';
import { oversizedBy } from '../core/policy';
import { CompactionControl, type CompactOutcome } from './compaction-control';
import { ContextAssembly } from './context-assembly';
import type { SavedItem } from './conversation-format';
import { Emitter } from './emitter';
import type { ChatEntry, CompactionState } from './entries';
import { EntryLog } from './entry-log';
import { type MeterFigures, meterFigures } from './meter';
import { RequestLoop } from './request-loop';
import { fitText, linkedNotes } from './restore';
import { fromSaved, toSaved } from './session-persistence';
import type { SendOutcome, SessionDeps, SessionEvents } from './session-types';
import { type CompactChatSettings, budgetsFor, modelOf, windowFor } from './settings';
import { ToolLoop } from './tool-loop';
import { TrackerSync } from './tracker-sync';
import { UserControl } from './user-control';

export type { CompactOutcome } from './compaction-control';
export type { SendOutcome, SessionDeps, SessionEvents } from './session-types';

/** The line that ends a message trimmed to fit, and the room it takes. */
const trimMark = (tokens: number): string => `[Trimmed to fit the context window: the full text was about ${tokens.toLocaleString('en-US')} tokens.]`;
const TRIM_MARK_TOKENS = 40;

/** Messages of a loaded conversation read for compaction per `later` task. */
const PREPARE_CHUNK = 100;

export class ChatSession {
  readonly events = new Emitter<SessionEvents>();
  /** Every message, notice and failed turn, in order. */
  private readonly log = new EntryLog((entries) => this.events.emit('entries', entries));
  /** Counts loads and clears, so reading a loaded conversation ahead stops when it is replaced. */
  private loads = 0;
  /** The system prompt's parts: settings prompt, block, restored, active and mentioned notes. */
  private readonly context: ContextAssembly;
  /** The tool definitions sent, the models that refused tools, the history tool. */
  private readonly tools: ToolLoop;
  /** The token tracker, kept in line with the settings and anchored on reported usage. */
  private readonly count: TrackerSync;
  /** The compaction rounds, the policy calls, undo and "Compact now". */
  private readonly control: CompactionControl;
  /** Pins and the edits of the carried lines. */
  private readonly user: UserControl;
  /** The loop of the send in progress. */
  private readonly loop: RequestLoop;
  /** Set for a conversation loaded from a note that could not be read in full: nothing is sent. */
  private readOnlyReason: string | null = null;

  constructor(private readonly deps: SessionDeps) {
    const settings = (): CompactChatSettings => deps.settings();
    const windowOf = (s: CompactChatSettings): number => windowFor(s);
    const now = (): number => this.now();
    const meterChanged = (): void => this.emitMeter();
    const log = this.log;
    this.context = new ContextAssembly(deps.notes);
    this.tools = new ToolLoop({
      runner: deps.tools,
      windowOf,
      holds: (entry) => log.holds(entry),
      appendResult: (message) => {
        this.count.tracker.append(message);
        log.push({ kind: 'message', id: message.id, message, status: 'done' });
        prepareMessage(message);
      },
      meterChanged,
      now,
    });
    this.count = new TrackerSync({
      context: this.context,
      tools: this.tools,
      sentMessages: () => this.sentMessages(),
      unsentMessages: () => this.unsentMessages(),
      notice: (level, text) => log.notice(level, text),
    });
    this.control = new CompactionControl({
      context: this.context,
      tracker: () => this.count.tracker,
      windowOf,
      sendable: () => log.sendable().map((e) => e.message),
      pinned: () => new Set(log.sendable().filter((e) => e.pinned).map((e) => e.id)),
      mentions: () => log.messages(),
      toolTokens: () => this.count.tracker.breakdown().tools,
      recount: () => this.count.recount(),
      notice: (level, text, compaction) => log.notice(level, text, compaction),
      compacted: (state) => this.events.emit('compaction', state),
      roundsChanged: (rounds) => {
        this.events.emit('compactions', rounds);
        this.emitMeter();
      },
      skipped: (reason, message) => {
        this.events.emit('compaction-skipped', { reason, message });
        this.emitMeter();
      },
      now,
    });
    this.user = new UserControl({
      control: this.control,
      context: this.context,
      entries: log,
      settings,
      tracker: () => this.count.tracker,
      readOnly: () => this.readOnlyReason,
      busy: () => this.busy,
      pinChanged: (entry) => {
        this.count.recount();
        this.count.sync(settings());
        this.events.emit('entry', entry);
        this.emitMeter();
      },
      meterChanged,
    });
    this.loop = new RequestLoop({
      events: this.events,
      entries: log,
      count: this.count,
      control: this.control,
      tools: this.tools,
      settings,
      refreshParts: (s) => this.refreshParts(s),
      sentMessages: () => this.sentMessages(),
      systemPrompt: () => this.systemPrompt(),
      windowOf,
      provider: (s) => deps.provider(s),
      apiKey: (s) => deps.apiKey(s),
      meterChanged,
      now,
    });
    this.count.sync(settings());
  }

  // ── what the view reads ───────────────────────────────────────────────────────────────────

  get entries(): readonly ChatEntry[] {
    return this.log.all;
  }

  /** Every message of the conversation, compacted or not (the transcript). */
  get messages(): ChatMessage[] {
    return this.log.messages().map((e) => e.message);
  }

  /** The compaction rounds applied so far, oldest first (for the summary panel). */
  get compactions(): readonly CompactionState[] {
    return this.control.rounds;
  }

  get busy(): boolean {
    return this.loop.busy;
  }

  /** Why this conversation is read-only, or null. */
  get readOnly(): string | null {
    return this.readOnlyReason;
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
    const window = windowFor(settings);
    const model = modelOf(settings);
    return meterFigures({
      breakdown: this.count.tracker.breakdown(),
      window,
      compactionPoint: budgetsFor(settings, window).point,
      parts: this.context.partTokens(model),
      reported: this.count.lastUsage,
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
    const index = this.log.indexOf(id);
    return index >= 0 && index >= this.boundaryIndex() && !this.busy && this.readOnlyReason === null;
  }

  /** The compacted messages (no longer sent as written, original text) that best match `query`,
   * best first: the compaction panel's search box, where the user asks. */
  searchCompacted(query: string, limit: number): ChatMessage[] {
    return this.tools.searchCompacted(this.unsentMessages(), query, limit);
  }

  /** How many messages `searchCompacted` searches. */
  compactedCount(): number {
    return this.tools.compactedCount(this.unsentMessages());
  }

  // ── pins and the carried lines (user-control.ts) ──────────────────────────────────────────

  /** Whether the user pinned this message. */
  isPinned(id: string): boolean {
    return this.user.isPinned(id);
  }

  /** Why the message cannot be pinned or unpinned now, or null when it can. */
  pinBlocker(id: string): string | null {
    return this.user.pinBlocker(id);
  }

  /** Why the latest round's lines cannot be edited now, or null. */
  lineEditBlocker(): string | null {
    return this.user.lineEditBlocker();
  }

  /** Why the last edit of the summary cannot be undone now, or null. */
  lineEditUndoBlocker(): string | null {
    return this.user.lineEditUndoBlocker();
  }

  /**
   * Pins a message (always sent verbatim: no compaction removes it, nor the rest of its unit, so a
   * pinned tool call keeps its results) or unpins it. A message pinned when a round passed it and
   * unpinned later is still sent until the next round summarises it. Returns a warning when the
   * pinned messages alone take more room than a compaction can leave for what it keeps, else ''.
   */
  setPinned(id: string, pinned: boolean): { ok: boolean; message: string } {
    return this.user.setPinned(id, pinned);
  }

  /**
   * Removes (`text` null or blank) or rewrites a line the latest compaction round carries. The
   * block is rendered again (the room a removed line frees goes to what ranked next) and sent from
   * the next request; the edit is saved with the round, carried by later rounds, and undone by
   * {@link undoLineEdit}. `message` warns when the rewritten line does not fit the block.
   */
  editCarriedLine(section: EditableSection, key: string, text: string | null): { ok: boolean; message: string } {
    return this.user.editCarriedLine(section, key, text);
  }

  /** Puts a removed or rewritten line of the latest round back as it was extracted. */
  restoreCarriedLine(section: EditableSection, key: string): { ok: boolean; message: string } {
    return this.user.restoreCarriedLine(section, key);
  }

  /** Undoes the last edit of the latest round's lines; the step undone, or null. */
  undoLineEdit(): LineEdit | null {
    return this.user.undoLineEdit();
  }

  // ── what the user does ────────────────────────────────────────────────────────────────────

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
    const fixed = this.context.fixedTokens(model, this.count.tracker.breakdown().tools, { mentioned: false });
    const budgets = this.control.budgets(settings);
    const tokens = estimateMessageTokens({ id: '', createdAt: 0, role: 'user', content }, model);
    const over = oversizedBy(budgets, fixed, tokens);
    if (over > 0 && options.oversized !== 'send') {
      const limit = tokens - over;
      if (options.oversized !== 'trim') return { kind: 'oversized', tokens, limit };
      content = `${fitText(content, Math.max(0, limit - TRIM_MARK_TOKENS), model)}\n\n${trimMark(tokens)}`;
    }
    this.appendUser(content);
    await this.loop.run();
    return { kind: 'sent' };
  }

  /** Stops the reply being streamed; the partial reply is kept and marked as stopped. */
  stop(): void {
    this.loop.stop();
  }

  /** Replaces a reply (or a failed turn) with a new one. */
  async regenerate(id: string): Promise<void> {
    const index = this.log.indexOf(id);
    const entry = this.log.at(index);
    if (!entry || entry.kind !== 'message' || entry.message.role !== 'assistant' || !this.canRewrite(id)) return;
    this.truncate(index);
    await this.loop.run();
  }

  /** Retries the failed turn `id` (an error entry): the same as regenerating it. */
  async retry(id: string): Promise<void> {
    await this.regenerate(id);
  }

  /** Replaces a user message (and everything after it) with `text`, then sends it. */
  async editAndResend(id: string, text: string): Promise<void> {
    const index = this.log.indexOf(id);
    const entry = this.log.at(index);
    const content = text.trim();
    if (!content || !entry || entry.kind !== 'message' || entry.message.role !== 'user' || !this.canRewrite(id)) return;
    this.truncate(index);
    this.appendUser(content);
    await this.loop.run();
  }

  /** "Compact now": compacts whatever lies before the kept part, with an optional focus. */
  async compactNow(focus?: string): Promise<CompactOutcome> {
    if (this.busy) return { kind: 'skipped', reason: 'nothing-to-compact', message: 'Wait for the reply to finish.' };
    const settings = this.deps.settings();
    await this.refreshParts(settings);
    const outcome = await this.control.compact(settings, ['manual'], { force: true, focus });
    this.count.sync(settings);
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
    this.count.sync(this.deps.settings());
    this.log.markUndone(undone);
    this.emitMeter();
    return undone;
  }

  /** Starts over: the conversation, its compactions and the tracker are cleared. */
  clear(): void {
    this.stop();
    this.loads++;
    this.log.reset();
    this.control.reset();
    this.tools.reset();
    this.readOnlyReason = null;
    this.count.reset();
    this.count.sync(this.deps.settings());
    this.log.announce();
    this.events.emit('compactions', this.control.rounds);
    this.emitMeter();
  }

  /** The conversation as saved: every message and every applied compaction round, in order (see
   * session-persistence.ts: a failed reply is kept when it produced text, marked how it ended). */
  toSaved(): SavedItem[] {
    return toSaved(this.log.all, this.control.rounds, this.control.cleared);
  }

  /**
   * Replaces the conversation with a saved one, compaction state included: the boundary, the
   * block and restored notes sent, the micro-compacted results. With `readOnly` (a note that could
   * not be read in full) the messages are shown but nothing can be sent or rewritten.
   */
  load(items: readonly SavedItem[], readOnly: string | null = null): void {
    this.clear();
    const saved = fromSaved(items);
    this.log.reset(saved.entries);
    this.control.reset(saved.compactions, saved.cleared);
    this.readOnlyReason = readOnly;
    this.count.sync(this.deps.settings());
    this.count.recount();
    this.log.announce();
    this.events.emit('compactions', this.control.rounds);
    this.emitMeter();
    this.prepareLoaded();
  }

  /** Settings changed: the next request uses them; the meter shows them now. */
  settingsChanged(): void {
    this.count.sync(this.deps.settings());
    this.emitMeter();
  }

  /** Aborts the stream (plugin unload). */
  dispose(): void {
    this.stop();
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────

  /** Reads what the system prompt is made of now (settings, the active note, the mentioned notes)
   * into the tracker. */
  private async refreshParts(settings: CompactChatSettings): Promise<void> {
    await this.context.refresh(settings, this.log.messages(), new Set(this.sentOriginals().map((m) => m.id)));
    this.count.sync(settings);
  }

  /** Reads the loaded messages for compaction a chunk at a time, as new messages are read when
   * they arrive; a later load or clear stops it. */
  private prepareLoaded(): void {
    const later = this.deps.later;
    if (!later) return;
    const load = this.loads;
    const messages = this.log.messages().map((e) => e.message);
    let next = 0;
    const step = (): void => {
      if (load !== this.loads) return;
      const end = Math.min(messages.length, next + PREPARE_CHUNK);
      for (; next < end; next++) prepareMessage(messages[next] as ChatMessage);
      if (next < messages.length) later(step);
    };
    if (messages.length) later(step);
  }

  /** Messages that were sent once and are no longer sent as written: those before the boundary,
   * and the micro-compacted tool results (their original text). */
  private unsentMessages(): ChatMessage[] {
    if (!this.control.rounds.length && !this.control.cleared.size) return [];
    const sent = new Set(this.sentOriginals().map((m) => m.id));
    return this.log
      .sendable()
      .map((e) => e.message)
      .filter((m) => !sent.has(m.id) || this.control.cleared.has(m.id));
  }

  private appendUser(content: string): void {
    this.control.releasePinned();
    const message: UserMessage = { id: newMessageId(), createdAt: this.now(), role: 'user', content };
    const mentions = linkedNotes(content, this.deps.notes);
    this.count.tracker.append(message);
    this.log.push({ kind: 'message', id: message.id, message, status: 'done', ...(mentions.length ? { mentions } : {}) });
    this.emitMeter();
    prepareMessage(message);
  }

  /** Drops entry `index` and everything after it (a rewrite), and recounts what is sent. */
  private truncate(index: number): void {
    const dropped = this.log.truncate(index);
    this.control.forget(dropped.map((e) => e.id));
    this.count.recount();
    this.log.announce();
    this.emitMeter();
  }

  /** The messages the next request carries, in their original (unplaceholdered) form. */
  private sentOriginals(): ChatMessage[] {
    return this.control.sent(this.log.sendable(), (e) => e.message.role === 'user').map((e) => e.message);
  }

  /** Index in `entries` of the first entry still sent: just after the latest round's boundary. */
  private boundaryIndex(): number {
    const through = this.control.boundaryId();
    if (!through) return 0;
    const index = this.log.indexOf(through);
    return index < 0 ? 0 : index + 1;
  }

  private emitMeter(): void {
    this.events.emit('meter', this.meter());
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }
}
