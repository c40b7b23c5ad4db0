// The user's turns: a new message weighed against the window before it is sent (held back when it
// would not fit even after the fullest compaction, or cut to fit and marked when the user chose
// that), then appended with its `[[mentions]]` resolved, counted and read for compaction; and the
// rewrites (regenerate, edit and resend), allowed only for a message still sent as written, which
// drop it and everything after it before the request loop answers again.
//
// Ownership: the only place a user message is created and the only caller of the entry log's
// `truncate` (the compaction control forgets the dropped ids through it). What a send then does is
// the request loop's, started through the host. The session forwards the view's calls here.
// Plain class, no DOM.
import { prepareMessage } from '../core/compact';
import { estimateMessageTokens } from '../core/message-tokens';
import { type UserMessage, newMessageId } from '../core/messages';
import { oversizedBy } from '../core/policy';
import type { CompactionControl } from './compaction-control';
import type { ContextAssembly } from './context-assembly';
import type { EntryLog } from './entry-log';
import { fitText, linkedNotes } from './restore';
import type { SendOutcome } from './session-types';
import { type CompactChatSettings, modelOf } from './settings';
import type { TrackerSync } from './tracker-sync';
import type { NoteSource } from './vault-access';

/** What the user's turns need from the session they serve. */
export interface UserTurnsHost {
  readonly entries: EntryLog;
  readonly control: CompactionControl;
  readonly context: ContextAssembly;
  readonly count: TrackerSync;
  readonly notes: NoteSource;
  settings(): CompactChatSettings;
  busy(): boolean;
  /** Why the conversation is read-only (a note not read in full), or null. */
  readOnly(): string | null;
  /** Answers the conversation as it stands (the request loop); resolves when the reply is done. */
  answer(): Promise<void>;
  meterChanged(): void;
  now(): number;
}

/** The line that ends a message trimmed to fit, and the room it takes. */
const trimMark = (tokens: number): string => `[Trimmed to fit the context window: the full text was about ${tokens.toLocaleString('en-US')} tokens.]`;
const TRIM_MARK_TOKENS = 40;

export class UserTurns {
  constructor(private readonly host: UserTurnsHost) {}

  /** Sends a user message (see `ChatSession.send`). */
  async send(text: string, options: { oversized?: 'send' | 'trim' }): Promise<SendOutcome> {
    const host = this.host;
    let content = text.trim();
    if (!content || host.busy() || host.readOnly()) return { kind: 'ignored' };
    const settings = host.settings();
    const model = modelOf(settings);
    // The parts as of the last request (re-reading notes first would leave the view a moment
    // with the message neither sent nor busy).
    const fixed = host.context.fixedTokens(model, host.count.tracker.breakdown().tools, { mentioned: false });
    const budgets = host.control.budgets(settings);
    const tokens = estimateMessageTokens({ id: '', createdAt: 0, role: 'user', content }, model);
    const over = oversizedBy(budgets, fixed, tokens);
    if (over > 0 && options.oversized !== 'send') {
      const limit = tokens - over;
      if (options.oversized !== 'trim') return { kind: 'oversized', tokens, limit };
      content = `${fitText(content, Math.max(0, limit - TRIM_MARK_TOKENS), model)}\n\n${trimMark(tokens)}`;
    }
    this.appendUser(content);
    await host.answer();
    return { kind: 'sent' };
  }

  /** Replaces a reply (or a failed turn) with a new one. */
  async regenerate(id: string): Promise<void> {
    const log = this.host.entries;
    const index = log.indexOf(id);
    const entry = log.at(index);
    if (!entry || entry.kind !== 'message' || entry.message.role !== 'assistant' || !this.canRewrite(id)) return;
    this.truncate(index);
    await this.host.answer();
  }

  /** Replaces a user message (and everything after it) with `text`, then sends it. */
  async editAndResend(id: string, text: string): Promise<void> {
    const log = this.host.entries;
    const index = log.indexOf(id);
    const entry = log.at(index);
    const content = text.trim();
    if (!content || !entry || entry.kind !== 'message' || entry.message.role !== 'user' || !this.canRewrite(id)) return;
    this.truncate(index);
    this.appendUser(content);
    await this.host.answer();
  }

  /** Whether a message can be edited and resent / regenerated: it must still be sent verbatim. */
  canRewrite(id: string): boolean {
    const index = this.host.entries.indexOf(id);
    return index >= 0 && index >= this.boundaryIndex() && !this.host.busy() && this.host.readOnly() === null;
  }

  private appendUser(content: string): void {
    const host = this.host;
    host.control.releasePinned();
    const message: UserMessage = { id: newMessageId(), createdAt: host.now(), role: 'user', content };
    const mentions = linkedNotes(content, host.notes);
    host.count.tracker.append(message);
    host.entries.push({ kind: 'message', id: message.id, message, status: 'done', ...(mentions.length ? { mentions } : {}) });
    host.meterChanged();
    prepareMessage(message);
  }

  /** Drops entry `index` and everything after it (a rewrite), and recounts what is sent. */
  private truncate(index: number): void {
    const log = this.host.entries;
    const dropped = log.truncate(index);
    this.host.control.forget(dropped.map((e) => e.id));
    this.host.count.recount();
    log.announce();
    this.host.meterChanged();
  }

  /** Index in the entries of the first entry still sent: just after the latest round's boundary. */
  private boundaryIndex(): number {
    const through = this.host.control.boundaryId();
    if (!through) return 0;
    const index = this.host.entries.indexOf(through);
    return index < 0 ? 0 : index + 1;
  }
}
