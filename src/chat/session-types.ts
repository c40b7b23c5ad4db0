// What a `ChatSession` speaks with the outside: the events the views listen to, what the plugin
// gives it (settings, provider, API key, notes, tools, a timer), and the outcome of a send. Types
// only: the session (session.ts) emits and reads them; the plugin and the views import them from
// there.
import type { ChatProvider } from '../providers/types';
import type { ChatEntry, CompactionState, MessageEntry } from './entries';
import type { MeterFigures } from './meter';
import type { CompactChatSettings } from './settings';
import type { ToolRunner } from './tool-loop';
import type { PastConversations } from './past-conversations-tool';
import type { NoteSource } from './vault-access';

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
  /** The other saved conversations, for the model's `search_conversations` tool; not offered when absent. */
  pastConversations?: PastConversations;
  now?(): number;
  /** Runs a task soon, without holding up the UI (main.ts: a timer the plugin registers). Used to
   * read a loaded conversation's messages for compaction in chunks; without it they are read by
   * their first compaction. */
  later?: (task: () => void) => void;
}

/** What became of a send: sent (the reply has finished), ignored (empty, busy, read-only), or held
 * back because the message is too big for the window (`tokens` estimated, `limit` what fits). */
export type SendOutcome = { kind: 'sent' } | { kind: 'ignored' } | { kind: 'oversized'; tokens: number; limit: number };
