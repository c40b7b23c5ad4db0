// Compaction control for one conversation: asks the policy (src/core/policy.ts) before every
// request, applies its rounds (micro-compaction first, then a full compaction with the block and
// the restored notes), "Compact now" and why it is unavailable, undo of the last round, and which
// messages a request carries (those after the boundary, the latest user message always). The
// session coordinates; this module owns the rounds and the micro-compacted results.
import { compact } from '../core/compact';
import { type EditableSection, type LineEdit, cleanEditText, lineKey, reviseRecord, sectionLines } from '../core/edits';
import { estimateMessageTokens } from '../core/message-tokens';
import type { ChatMessage, ToolResultMessage } from '../core/messages';
import { microCompact } from '../core/micro-compact';
import { type Budgets, type PolicyDecision, decideCompaction, microSuffices, promptMargin, restoredRoom, sentFrom } from '../core/policy';
import type { TokenTracker } from '../core/tracker';
import { wholeUnits } from '../core/units';
import type { ContextAssembly, MentionSource } from './context-assembly';
import { type CompactionCause, type CompactionState, compactionNoticeText } from './entries';
import { plural } from './format';
import { EMPTY_RESTORED } from './restore';
import { composeSystemPrompt } from './system-prompt';
import { type CompactChatSettings, budgetsFor, modelOf } from './settings';

export type CompactOutcome =
  | { kind: 'compacted'; state: CompactionState }
  | { kind: 'micro'; cleared: string[]; tokensSaved: number }
  | { kind: 'skipped'; reason: 'nothing-to-compact' | 'no-shrink'; message: string };

/** What the control needs from the session it serves. */
export interface CompactionHost {
  readonly context: ContextAssembly;
  tracker(): TokenTracker;
  /** The window the requests use (Ollama: the context size sent as `num_ctx`). */
  windowOf(settings: CompactChatSettings): number;
  /** Every message of the conversation that is sent when not compacted, in order. */
  sendable(): ChatMessage[];
  /** Ids of the messages the user pinned (always sent verbatim). */
  pinned(): ReadonlySet<string>;
  /** The entries, for the notes the sent user messages mention. */
  mentions(): MentionSource;
  /** Tokens of the tool definitions sent with the next request. */
  toolTokens(): number;
  /** Recounts the tracker from what is sent now (after an undo). */
  recount(): void;
  notice(level: 'info' | 'warning', text: string, compaction?: CompactionState): void;
  compacted(state: CompactionState): void;
  roundsChanged(rounds: readonly CompactionState[]): void;
  skipped(reason: string, message: string): void;
  now(): number;
}

const isUser = (m: ChatMessage): boolean => m.role === 'user';

export class CompactionControl {
  private readonly list: CompactionState[] = [];
  /** Sent content of micro-compacted tool results, by message id. */
  private readonly clearedText = new Map<string, string>();
  private lastSkip = '';
  /** Set by an undo: the next request does not compact automatically while the prompt still fits
   * the window (the user just asked for the longer prompt). Cleared by that request. */
  private hold = false;
  /** The pinned tokens last warned about as too many for the window (one warning per change). */
  private pinWarned = '';

  constructor(private readonly host: CompactionHost) {}

  /** The rounds applied, oldest first. */
  get rounds(): readonly CompactionState[] {
    return this.list;
  }

  /** Sent content of micro-compacted tool results, by id (saved with the conversation). */
  get cleared(): ReadonlyMap<string, string> {
    return this.clearedText;
  }

  budgets(settings: CompactChatSettings): Budgets {
    return budgetsFor(settings, this.host.windowOf(settings));
  }

  /** Id of the last message the latest round removed, or null before any round. */
  boundaryId(): string | null {
    return this.list[this.list.length - 1]?.record.removedThrough ?? null;
  }

  /** Of `items` (every sendable message, or its entries, in order), those a request carries:
   * after the boundary, the latest user message when a round inside its turn passed it, and the
   * pinned messages before it (with their units). */
  sent<T extends { id: string }>(items: readonly T[], userOf: (item: T) => boolean): T[] {
    const through = this.boundaryId();
    const at = through ? items.findIndex((i) => i.id === through) : -1;
    const pins = at >= 0 ? this.keptVerbatim() : new Set<string>();
    const carried = this.list[this.list.length - 1]?.record.requestCarried;
    return sentFrom(items, at + 1, userOf, (item) => pins.has(item.id), (item) => item.id === carried);
  }

  /** Ids of the messages sent verbatim wherever the boundary is: those the user pinned, and those
   * the latest round left sent because they were pinned then (until a round summarises them),
   * each with its whole unit so a tool call keeps its results. */
  keptVerbatim(): Set<string> {
    const ids = new Set(this.host.pinned());
    for (const id of this.list[this.list.length - 1]?.record.keptPinned ?? []) ids.add(id);
    return wholeUnits(this.host.sendable(), ids);
  }

  /** A message as sent: a micro-compacted tool result is its placeholder. */
  sentVersion(message: ChatMessage): ChatMessage {
    const placeholder = this.clearedText.get(message.id);
    if (placeholder === undefined || message.role !== 'tool') return message;
    const sent: ToolResultMessage = { ...message, content: placeholder };
    return sent;
  }

  /** A new user message is about to be appended: a user message kept before the boundary by an
   * in-turn round is no longer the latest, so it stops being sent (the block carries it). */
  releasePinned(): void {
    const all = this.host.sendable();
    const through = this.boundaryId();
    const at = through ? all.findIndex((m) => m.id === through) : -1;
    const kept = this.keptVerbatim();
    const held = this.sent(all, isUser).find((m) => isUser(m) && all.indexOf(m) <= at && !kept.has(m.id));
    if (held) this.host.tracker().remove(held.id);
  }

  /** Messages dropped by a rewrite: their placeholders go with them. */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.clearedText.delete(id);
  }

  /** Before every request (a send, each tool-loop continuation): compacts when the policy says so. */
  async beforeRequest(settings: CompactChatSettings, options: { quiet?: boolean } = {}): Promise<void> {
    const hold = this.hold;
    this.hold = false;
    const budgets = this.budgets(settings);
    // Just after an undo, the longer prompt is what the user asked for, as long as it fits.
    if (hold && this.host.tracker().total() + budgets.replyReserve <= budgets.window) return;
    const plan = this.plan(settings, false);
    if (plan.action !== 'none') await this.compact(settings, plan.reasons, { force: false, quiet: options.quiet === true });
  }

  /** Why "Compact now" cannot run (busy, or nothing lies before the latest exchange), or null. */
  blocker(busy: boolean, settings: CompactChatSettings): string | null {
    if (busy) return 'Wait for the reply to finish.';
    const plan = this.plan(settings, true);
    if (plan.action !== 'nothing-to-compact') return null;
    if (!this.list.length) return plan.message;
    return /empty/.test(plan.message) ? 'Nothing new to compact since the last compaction.' : plan.message.replace(/^Nothing to compact/, 'Nothing new to compact');
  }

  /**
   * One round: micro-compaction of old tool results first (enough on its own when it reaches the
   * policy's target), then a full compaction at the policy's cut, the notes the removed part
   * worked with restored in the room left below the target. Applied only if the prompt shrinks.
   */
  async compact(settings: CompactChatSettings, causes: CompactionCause[], options: { force: boolean; focus?: string | undefined; quiet?: boolean }): Promise<CompactOutcome> {
    const model = modelOf(settings);
    const tracker = this.host.tracker();
    const promptBefore = tracker.total();
    const manual = causes.includes('manual');
    // A server that says the prompt is too long overrides the estimate: compact as if over the point.
    let plan = this.plan(settings, manual, causes.includes('overflow'));
    if (plan.action === 'none') return this.skip(options.quiet === true, 'nothing-to-compact', 'Nothing to compact: the prompt is below the compaction point.', []);

    let microCleared: string[] = [];
    if (settings.microCompaction && !causes.includes('messages') && plan.action === 'compact') {
      const micro = microCompact(this.sentMessages(), { keepRecentUnits: Math.max(4, settings.keepExchanges * 2), model, keep: this.keptVerbatim() });
      if (micro.clearedIds.length) {
        microCleared = micro.clearedIds;
        for (const message of micro.messages) {
          if (!micro.clearedIds.includes(message.id)) continue;
          this.clearedText.set(message.id, message.content);
          tracker.update(message);
        }
        if (!options.force && microSuffices(tracker.total(), plan)) {
          this.host.notice('info', `Cleared ${plural(micro.clearedIds.length, 'old tool result')} to save about ${micro.tokensSaved.toLocaleString('en-US')} tokens.`);
          return { kind: 'micro', cleared: micro.clearedIds, tokensSaved: micro.tokensSaved };
        }
        plan = this.plan(settings, manual, causes.includes('overflow'), promptBefore);
      }
    }
    if (plan.action !== 'compact') return this.skip(options.quiet === true, 'nothing-to-compact', plan.action === 'nothing-to-compact' ? plan.message : 'Nothing to compact.', microCleared);
    this.warnPinned(plan);

    const all = this.host.sendable();
    const sent = this.sent(all, isUser);
    const cutMessage = sent[plan.cut];
    const pinned = plan.pinned === null ? null : (sent[plan.pinned] ?? null);
    const previous = this.list[this.list.length - 1]?.record ?? null;
    const result = compact(all, {
      budgetTokens: plan.blockBudget,
      cut: cutMessage ? all.indexOf(cutMessage) : all.length,
      previous,
      ...(options.focus ? { focus: options.focus } : {}),
      ...(model ? { model } : {}),
      now: this.host.now(),
      trigger: causes[0] === 'overflow' ? 'tokens' : (causes[0] ?? 'unknown'),
      tokensOf: this.tokensOf(model),
      pinned: this.host.pinned(),
      ...(plan.carried !== null && sent[plan.carried] ? { requestCarried: (sent[plan.carried] as ChatMessage).id } : {}),
    });
    if (!result.ok) return this.skip(options.quiet === true, 'nothing-to-compact', result.message, microCleared);
    if (result.unchanged) return this.skip(options.quiet === true, 'nothing-to-compact', 'Nothing new to compact.', microCleared);
    // A request an earlier round of this turn kept sent, now carried by the block, stops being sent.
    const carriedId = plan.carried === null ? undefined : sent[plan.carried]?.id;
    const carriedMessage = carriedId && !result.removed.some((m) => m.id === carriedId) ? all.find((m) => m.id === carriedId) : undefined;
    const dropped = [...(carriedMessage ? [carriedMessage] : []), ...result.removed.filter((m) => m !== pinned)];

    // The notes the removed part worked with fill the room left below the target.
    const context = this.host.context;
    const removedTokens = dropped.reduce((sum, m) => sum + (tracker.messageTokens(m.id) ?? 0), 0);
    const systemNow = context.systemTokensWith(context.parts, model);
    const promptWith = (parts: typeof context.parts): number => tracker.estimated() - removedTokens - systemNow + context.systemTokensWith(parts, model);
    const keptIds = new Set([...result.kept, ...(pinned ? [pinned] : [])].map((m) => m.id));
    // Notes mentioned only by removed messages leave the mentioned block.
    const mentioned = await context.mentionedBlock(settings, this.host.mentions(), keptIds);
    const withoutNotes = { ...context.parts, previousContext: context.shownBlock(result.block), mentioned, restored: '' };
    // (The room held back by the margin the prompt's own text needs: the target holds by the
    // model's count, not only by the estimate.)
    const margin = promptMargin([composeSystemPrompt(withoutNotes)], [...result.kept, ...(pinned ? [pinned] : [])], model);
    const restored = await context.restoreAfter(settings, result.removed, result.record, restoredRoom(this.budgets(settings), plan.target, promptWith(withoutNotes), margin));

    const promptAfter = promptWith({ ...withoutNotes, restored: restored.block });
    const estimatedBefore = tracker.estimated();
    if (promptAfter >= estimatedBefore) {
      return this.skip(options.quiet === true, 
        'no-shrink',
        `Compaction was not applied: it would not shrink the prompt (${estimatedBefore.toLocaleString('en-US')} → ${promptAfter.toLocaleString('en-US')} tokens).`,
        microCleared,
      );
    }
    for (const m of dropped) tracker.remove(m.id);
    context.setRound(result.block, restored, mentioned);
    tracker.setSystemPrompt(context.systemPrompt());
    const state: CompactionState = { record: result.record, causes, microCleared, restored, promptBefore, promptAfter: tracker.total() };
    this.list.push(state);
    this.lastSkip = '';
    this.hold = false;
    this.host.notice('info', compactionNoticeText(state, dropped.length), state);
    this.host.compacted(state);
    this.host.roundsChanged(this.list);
    return { kind: 'compacted', state };
  }

  /**
   * Undoes the latest round: its record is dropped, so the boundary moves back to the previous
   * round's (or to the start) and what is sent is again the previous round's block and restored
   * notes (or none) with the messages that round removed, its micro-compacted results restored.
   */
  undo(): CompactionState | null {
    const undone = this.list.pop();
    if (!undone) return null;
    const previous = this.list[this.list.length - 1] ?? null;
    for (const id of undone.microCleared) this.clearedText.delete(id);
    this.host.context.setRound(previous?.record.block ?? '', previous?.restored ?? EMPTY_RESTORED);
    this.host.recount();
    this.hold = true;
    this.lastSkip = '';
    const n = undone.record.removedIds.length;
    this.host.notice(
      'info',
      `Undid compaction round ${undone.record.round}: ${plural(n, 'message')} ${n === 1 ? 'is' : 'are'} sent again${previous ? `, with round ${previous.record.round}'s summary` : ''}.`,
    );
    this.host.roundsChanged(this.list);
    return undone;
  }

  /** A new chat, or a saved conversation's rounds and placeholders. */
  reset(rounds: readonly CompactionState[] = [], cleared: Iterable<[string, string]> = []): void {
    this.list.length = 0;
    this.list.push(...rounds);
    this.clearedText.clear();
    for (const [id, text] of cleared) this.clearedText.set(id, text);
    const last = this.list[this.list.length - 1];
    this.host.context.setRound(last?.record.block ?? '', last?.restored ?? EMPTY_RESTORED, '');
    this.lastSkip = '';
    this.hold = false;
  }

  private sentMessages(): ChatMessage[] {
    return this.sent(this.host.sendable(), isUser).map((m) => this.sentVersion(m));
  }

  private tokensOf(model: string | undefined): (m: ChatMessage) => number {
    const tracker = this.host.tracker();
    return (m) => tracker.messageTokens(m.id) ?? estimateMessageTokens(m, model);
  }

  /** The policy's decision for what would be sent now. */
  private plan(settings: CompactChatSettings, manual: boolean, overflow = false, promptBefore?: number): PolicyDecision {
    const model = modelOf(settings);
    const budgets = this.budgets(settings);
    const total = this.host.tracker().total();
    return decideCompaction({
      budgets,
      messages: this.sent(this.host.sendable(), isUser),
      tokensOf: this.tokensOf(model),
      promptTokens: overflow ? Math.max(total, budgets.point + 1) : total,
      ...(promptBefore !== undefined ? { promptBefore } : {}),
      fixedTokens: this.host.context.fixedTokens(model, this.host.toolTokens()),
      manual,
      pinned: this.keptVerbatim(),
      ...(model ? { model } : {}),
    });
  }

  /** Pinned messages that alone take more than the room a compaction leaves the kept messages:
   * the target cannot be met while they are pinned. Said once per such figure, not per request. */
  private warnPinned(plan: Extract<PolicyDecision, { action: 'compact' }>): void {
    if (plan.pinnedTokens <= plan.keepRoom) {
      this.pinWarned = '';
      return;
    }
    const key = String(plan.pinnedTokens);
    if (key === this.pinWarned) return;
    this.pinWarned = key;
    this.host.notice(
      'warning',
      `Pinned messages take about ${plan.pinnedTokens.toLocaleString('en-US')} tokens, more than the ${Math.max(0, plan.keepRoom).toLocaleString('en-US')} a compaction can leave for the messages it keeps in this window, so the prompt stays larger than compaction aims for. Unpin some messages to let compaction summarise them.`,
    );
  }

  // ── the user's edits of the latest round's lines ──────────────────────────────────────────

  /** Why the latest round's lines cannot be edited now, or null. */
  editBlocker(): string | null {
    if (!this.list.length) return 'No compaction round to edit.';
    return null;
  }

  /**
   * Removes (`text` null or blank) or rewrites a line of the latest round (the one whose block is
   * sent), or restores it (`text` undefined with `restore`). The block is rendered again within the
   * round's budget and sent from the next request on; the step is kept with the round (saved, and
   * undone by {@link undoEdit}). Returns a warning when the rewritten line did not fit the block.
   */
  editLine(settings: CompactChatSettings, section: EditableSection, key: string, change: { text: string | null } | { restore: true }): { ok: boolean; message: string } {
    const state = this.list[this.list.length - 1];
    if (!state) return { ok: false, message: 'No compaction round to edit.' };
    const line = sectionLines(state.record, section).find((l) => lineKey(l.text) === key);
    if (!line) return { ok: false, message: 'That line is no longer in the latest round.' };
    const step: LineEdit = { section, key, ...(line.sources[0] ? { source: line.sources[0] } : {}) };
    if ('text' in change) {
      const text = change.text === null ? '' : cleanEditText(change.text);
      if (text) step.text = text;
      else step.removed = true;
    }
    this.revise(settings, state, [...(state.record.edits ?? []), step]);
    if (step.text !== undefined && !state.record.block.includes(step.text)) {
      return { ok: true, message: `The edited line does not fit in the summary's budget (${(state.record.blockBudget ?? state.record.blockTokens).toLocaleString('en-US')} tokens), so it is not sent. Shorten it, or remove other lines.` };
    }
    return { ok: true, message: '' };
  }

  /** Undoes the last edit step of the latest round; the step undone, or null when there is none. */
  undoEdit(settings: CompactChatSettings): LineEdit | null {
    const state = this.list[this.list.length - 1];
    const edits = state?.record.edits ?? [];
    const last = edits[edits.length - 1];
    if (!state || !last) return null;
    this.revise(settings, state, edits.slice(0, -1));
    return last;
  }

  /** The latest round with these edits: its block rendered again and sent from now on. The state is
   * changed in place, so its notice and persistence still find it. */
  private revise(settings: CompactChatSettings, state: CompactionState, edits: readonly LineEdit[]): void {
    const model = modelOf(settings);
    const before = state.record.blockTokens;
    state.record = reviseRecord(state.record, edits, model ? { model } : {});
    state.promptAfter = Math.max(0, state.promptAfter - before + state.record.blockTokens);
    this.host.context.setRound(state.record.block, state.restored);
    this.host.tracker().setSystemPrompt(this.host.context.systemPrompt());
    this.host.roundsChanged(this.list);
  }

  /** `quiet`: a second ask in the same request (see the session's prepare) warns of nothing. */
  private skip(quiet: boolean, reason: 'nothing-to-compact' | 'no-shrink', message: string, microCleared: string[]): CompactOutcome {
    if (quiet) return { kind: 'skipped', reason, message };
    // One warning until a compaction succeeds again, not one per request.
    if (reason !== this.lastSkip) {
      this.lastSkip = reason;
      const micro = microCleared.length ? ` Cleared ${plural(microCleared.length, 'old tool result')} instead.` : '';
      this.host.notice('warning', message + micro);
    }
    this.host.skipped(reason, message);
    return { kind: 'skipped', reason, message };
  }
}
