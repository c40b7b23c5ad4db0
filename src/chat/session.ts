// One conversation, the public face of the chat layer: what the views read and what the user does
// (send, stop, regenerate, edit and resend, "Compact now", undo, pins, edits of the carried lines,
// new chat, load). The work is its parts': the entries (entry-log.ts); the loop of a send
// (request-loop.ts: the compaction control asked before every request, one request streamed in by
// reply-stream.ts, the tools run by tool-loop.ts); the compaction rounds (compaction-control.ts,
// which asks the policy in src/core/policy.ts); the count of what is sent (tracker-sync.ts); the
// system prompt's parts (context-assembly.ts); pins and carried-line edits (user-control.ts); a new
// message weighed and appended, and the rewrites (user-turns.ts); a new chat, a load and the saved
// form (conversation-switch.ts).
// Plain class, no DOM, no `obsidian`: the view renders what it exposes and forwards the user's
// actions.
//
// Ownership: the session creates its parts and wires them to each other through their host
// interfaces; each part changes its own state only when the session or another part calls it.
//
// Nothing is ever deleted by compaction: `entries` keeps every message; what compaction changes is
// only what is *sent* (the messages after the latest boundary and the latest user message, old
// tool results replaced by their placeholders, the system prompt with the block and the notes).
import { prepareMessage } from '../core/compact';
import type { ChatMessage } from '../core/messages';
import type { EditableSection, LineEdit } from '../core/edits';
import { CompactionControl, type CompactOutcome } from './compaction-control';
import { ContextAssembly } from './context-assembly';
import type { SavedItem } from './conversation-format';
import { ConversationSwitch } from './conversation-switch';
import { Emitter } from './emitter';
import type { ChatEntry, CompactionState } from './entries';
import { EntryLog } from './entry-log';
import { type MeterFigures, meterFigures } from './meter';
import { RequestLoop } from './request-loop';
import type { SendOutcome, SessionDeps, SessionEvents } from './session-types';
import { type CompactChatSettings, budgetsFor, modelOf, windowFor } from './settings';
import { ToolLoop } from './tool-loop';
import { TrackerSync } from './tracker-sync';
import { UserControl } from './user-control';
import { UserTurns } from './user-turns';

export type { CompactOutcome } from './compaction-control';
export type { SendOutcome, SessionDeps, SessionEvents } from './session-types';

export class ChatSession {
  readonly events = new Emitter<SessionEvents>();
  /** Every message, notice and failed turn, in order. */
  private readonly log = new EntryLog((entries) => this.events.emit('entries', entries));
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
  /** A new message weighed and appended; regenerate and edit-and-resend. */
  private readonly turns: UserTurns;
  /** A new chat, a load, the saved form; the read-only reason of a note not read in full. */
  private readonly conversation: ConversationSwitch;

  constructor(private readonly deps: SessionDeps) {
    const settings = (): CompactChatSettings => deps.settings();
    const windowOf = (s: CompactChatSettings): number => windowFor(s);
    const now = (): number => this.now();
    const meterChanged = (): void => this.emitMeter();
    const log = this.log;
    this.context = new ContextAssembly(deps.notes);
    this.tools = new ToolLoop({
      runner: deps.tools,
      past: deps.pastConversations,
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
    // What the parts built from here on all reach the same way.
    const parts = { events: this.events, entries: log, context: this.context, tools: this.tools, count: this.count, control: this.control, settings, meterChanged, now };
    this.user = new UserControl({
      ...parts,
      tracker: () => this.count.tracker,
      readOnly: () => this.readOnly,
      busy: () => this.busy,
      pinChanged: (entry) => {
        this.count.recount();
        this.count.sync(settings());
        this.events.emit('entry', entry);
        this.emitMeter();
      },
    });
    this.loop = new RequestLoop({
      ...parts,
      refreshParts: (s) => this.refreshParts(s),
      sentMessages: () => this.sentMessages(),
      systemPrompt: () => this.systemPrompt(),
      windowOf,
      provider: (s) => deps.provider(s),
      apiKey: (s) => deps.apiKey(s),
    });
    this.turns = new UserTurns({
      ...parts,
      notes: deps.notes,
      busy: () => this.busy,
      readOnly: () => this.readOnly,
      answer: () => this.loop.run(),
    });
    this.conversation = new ConversationSwitch({ ...parts, later: deps.later, stop: () => this.stop() });
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
    return this.conversation.readOnly;
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
    const readOnly = this.readOnly;
    if (readOnly) return readOnly;
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
    return this.turns.canRewrite(id);
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
    return this.turns.send(text, options);
  }

  /** Stops the reply being streamed; the partial reply is kept and marked as stopped. */
  stop(): void {
    this.loop.stop();
  }

  /** Replaces a reply (or a failed turn) with a new one. */
  async regenerate(id: string): Promise<void> {
    await this.turns.regenerate(id);
  }

  /** Retries the failed turn `id` (an error entry): the same as regenerating it. */
  async retry(id: string): Promise<void> {
    await this.regenerate(id);
  }

  /** Replaces a user message (and everything after it) with `text`, then sends it. */
  async editAndResend(id: string, text: string): Promise<void> {
    await this.turns.editAndResend(id, text);
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
    this.conversation.clear();
  }

  /** The conversation as saved: every message and every applied compaction round, in order (see
   * session-persistence.ts: a failed reply is kept when it produced text, marked how it ended). */
  toSaved(): SavedItem[] {
    return this.conversation.toSaved();
  }

  /**
   * Replaces the conversation with a saved one, compaction state included: the boundary, the
   * block and restored notes sent, the micro-compacted results. With `readOnly` (a note that could
   * not be read in full) the messages are shown but nothing can be sent or rewritten.
   */
  load(items: readonly SavedItem[], readOnly: string | null = null): void {
    this.conversation.load(items, readOnly);
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

  /** The messages the next request carries, in their original (unplaceholdered) form. */
  private sentOriginals(): ChatMessage[] {
    return this.control.sent(this.log.sendable(), (e) => e.message.role === 'user').map((e) => e.message);
  }

  private emitMeter(): void {
    this.events.emit('meter', this.meter());
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }
}
