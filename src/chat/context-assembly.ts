// What a request carries besides the messages: the system prompt from the settings, the
// `<previous_context>` block of the latest round, the notes restored after it, the active note and
// the notes the sent user messages mention. The session asks it to refresh before every request;
// the compaction control asks it what a compaction would change and applies the result.
import type { ChatMessage } from '../core/messages';
import type { CompactionRecord } from '../core/record';
import { REQUEST_OVERHEAD_TOKENS, estimateSystemPromptTokens } from '../core/message-tokens';
import { estimateTokens } from '../core/tokens';
import { HISTORY_LINE, withHistoryLine } from '../core/search-history';
import { EMPTY_RESTORED, type RestoredNotes, attachNotes, restoreCandidates, restoreNotes } from './restore';
import { type CompactChatSettings, modelOf, windowFor } from './settings';
import { EMPTY_PARTS, MENTIONED_NOTES, type SystemParts, activeNoteBlock, composeSystemPrompt, mentionedPaths } from './system-prompt';
import type { NoteSource } from './vault-access';

/** Entries as the context reads them: ids, and the notes a user message mentions. */
export type MentionSource = readonly { id: string; mentions?: string[] }[];

/** Share of the window an attached note block (the active note, the mentioned notes) may take at
 * most: a 4,000-token note budget in a 4k window would leave no room for the conversation. */
const NOTES_SHARE = 0.25;

/** A note budget as used in this window: the configured one, or a quarter of the window. */
export function noteBudget(configured: number, settings: CompactChatSettings): number {
  return Math.min(configured, Math.floor(windowFor(settings) * NOTES_SHARE));
}

export class ContextAssembly {
  private current: SystemParts = EMPTY_PARTS;
  private restoredNotes: RestoredNotes = EMPTY_RESTORED;
  /** The latest round's block as rendered, without the history line. */
  private block = '';
  /** Whether the block says the compacted messages can be searched (the tool is offered). */
  private searchable = false;

  constructor(private readonly notes: NoteSource) {}

  get parts(): SystemParts {
    return this.current;
  }

  /** The notes attached after the latest compaction. */
  get restored(): RestoredNotes {
    return this.restoredNotes;
  }

  systemPrompt(): string {
    return composeSystemPrompt(this.current);
  }

  /** The settings' system prompt changed (applies at once; the rest waits for `refresh`). */
  setBase(settings: CompactChatSettings): void {
    this.current = { ...this.current, base: settings.systemPrompt.trim() };
  }

  /** Before a request: re-reads the active note and the mentioned notes of what is sent. */
  async refresh(settings: CompactChatSettings, entries: MentionSource, sentIds: ReadonlySet<string>): Promise<void> {
    const activeNotePath = settings.includeActiveNote ? this.notes.activeNotePath() : null;
    const activeNote = activeNotePath ? await activeNoteBlock(this.notes, activeNotePath, noteBudget(settings.activeNoteBudget, settings), modelOf(settings)) : '';
    const mentioned = await this.mentionedBlock(settings, entries, sentIds, activeNote ? activeNotePath : null);
    this.current = { ...this.current, base: settings.systemPrompt.trim(), activeNote, activeNotePath, mentioned };
  }

  /** The notes mentioned by the user messages in `sentIds`, newest mention first, re-read now and
   * attached within `mentionBudget` ('' when there are none). */
  async mentionedBlock(settings: CompactChatSettings, entries: MentionSource, sentIds: ReadonlySet<string>, attachedActive = this.attachedActivePath()): Promise<string> {
    const paths = mentionedPaths(entries, sentIds, attachedActive);
    return (await attachNotes(paths, this.notes, noteBudget(settings.mentionBudget, settings), MENTIONED_NOTES, modelOf(settings))).block;
  }

  /** The prompt apart from the messages, the block and the restored notes: request overhead,
   * system prompt, attached notes, tool definitions, and the history tool's line while the tool is
   * offered (it goes with whatever block comes next, so the block's budget must leave it room).
   * Without `mentioned`, what no compaction can shrink (the notes mentioned by messages a
   * compaction removes leave with them). */
  fixedTokens(model: string | undefined, toolTokens: number, options: { mentioned: boolean } = { mentioned: true }): number {
    const parts = { ...this.current, previousContext: this.searchable ? HISTORY_LINE : '', restored: '', ...(options.mentioned ? {} : { mentioned: '' }) };
    return REQUEST_OVERHEAD_TOKENS + toolTokens + estimateSystemPromptTokens(composeSystemPrompt(parts), model);
  }

  /** The notes a compaction's removed messages worked with, re-read within `budget` (the active
   * note is attached on its own when it is included). */
  async restoreAfter(settings: CompactChatSettings, removed: readonly ChatMessage[], record: CompactionRecord, budget: number): Promise<RestoredNotes> {
    const activePath = settings.includeActiveNote ? this.current.activeNotePath : null;
    const candidates = restoreCandidates(removed, record, this.notes, activePath).filter((path) => path !== activePath || !this.current.activeNote);
    return restoreNotes(candidates, this.notes, budget, modelOf(settings));
  }

  /** Tokens of the system prompt if its parts were `parts` instead. */
  systemTokensWith(parts: SystemParts, model: string | undefined): number {
    return estimateSystemPromptTokens(composeSystemPrompt(parts), model);
  }

  /** A compaction was applied (or undone to an earlier round, or loaded): its block and notes. */
  setRound(previousContext: string, restored: RestoredNotes, mentioned = this.current.mentioned): void {
    this.restoredNotes = restored;
    this.block = previousContext;
    this.current = { ...this.current, previousContext: this.shownBlock(), restored: restored.block, mentioned };
  }

  /** The history tool is offered (or no longer): the block says so in one line. */
  setSearchable(searchable: boolean): void {
    if (searchable === this.searchable) return;
    this.searchable = searchable;
    this.current = { ...this.current, previousContext: this.shownBlock() };
  }

  /** A block as it is sent: with the history tool's line while the tool is offered. */
  shownBlock(block = this.block): string {
    return this.searchable && block ? withHistoryLine(block) : block;
  }

  /** A new chat: nothing from the previous conversation is carried. */
  clear(): void {
    this.setRound('', EMPTY_RESTORED, '');
  }

  /** Tokens of each part, for the meter. */
  partTokens(model: string | undefined): { base: number; previousContext: number; restored: number; activeNote: number } {
    const p = this.current;
    return {
      base: estimateTokens(p.base, model),
      previousContext: estimateTokens(p.previousContext, model),
      restored: estimateTokens(p.restored, model),
      activeNote: estimateTokens(p.activeNote, model) + estimateTokens(p.mentioned, model),
    };
  }

  private attachedActivePath(): string | null {
    return this.current.activeNote ? this.current.activeNotePath : null;
  }
}
