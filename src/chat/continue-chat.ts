// "Continue in a new chat": a long thread goes on in a clean conversation that starts from what the
// old one carried — what Claude Code's `/compact` followed by a new session does by hand. The new
// conversation opens with one pinned system message: a link back to the old note and a
// `<previous_context>` block made by compacting all of the old conversation at once (chained on its
// latest round, so what earlier rounds carried is kept); when there is nothing to compact, the
// latest round's block as it is. Pinned, so compaction in the new chat never summarises it away.
// Pure apart from the ids and time it is given.
import { compact } from '../core/compact';
import type { ChatMessage } from '../core/messages';
import type { CompactionRecord } from '../core/record';
import type { SavedItem } from './conversation-format';
import { type Conversations, titleFrom } from './conversations';
import type { ChatSession } from './session';
import { type CompactChatSettings, budgetsFor, windowFor } from './settings';

export interface ContinueFrom {
  title: string;
  /** The old conversation's note (null when it was never saved: then no link). */
  path: string | null;
  messages: readonly ChatMessage[];
  /** The latest compaction round's record, if any. */
  latest: CompactionRecord | null;
  /** The block's token budget (the settings' context budget, as scaled for the window). */
  budget: number;
  model: string;
  now: number;
  newId(): string;
}

export interface Continuation {
  title: string;
  items: SavedItem[];
  /** The block carried ('' when the old conversation had nothing to carry). */
  block: string;
}

/** A link to a conversation note as a wikilink (no ".md"). */
export function noteLink(path: string): string {
  return `[[${path.replace(/\.md$/i, '')}]]`;
}

/** The new conversation's title and first item, carrying the old one's context. */
export function continuation(from: ContinueFrom): Continuation {
  const block = carriedBlock(from);
  const title = `${from.title || 'Chat'} (continued)`;
  const back = from.path ? `This conversation continues "${from.title}" (${noteLink(from.path)}).` : `This conversation continues "${from.title}".`;
  const content = block ? `${back} What it carried forward:\n\n${block}` : back;
  const message: ChatMessage = { id: from.newId(), createdAt: from.now, role: 'system', content };
  return { title, items: [{ kind: 'message', message, pinned: true }], block };
}

/** All of the old conversation compacted at once (chained on its latest round), or that round's
 * block when there is nothing new to compact. */
function carriedBlock(from: ContinueFrom): string {
  const messages = from.messages.filter((m) => m.content.trim() || (m.role === 'assistant' && m.toolCalls?.length));
  if (messages.length) {
    const result = compact(messages, { budgetTokens: from.budget, cut: messages.length, previous: from.latest, model: from.model, now: from.now, trigger: 'manual' });
    if (result.ok) return result.block;
  }
  return from.latest?.block ?? '';
}

/** Continues the open conversation in a new one (the command, the history list and the panel call
 * this): the open one is saved first and left as it is. */
export async function continueInNewChat(conversations: Conversations, session: ChatSession, settings: CompactChatSettings, now: number, newId: () => string): Promise<Continuation> {
  await conversations.flush();
  const current = conversations.current;
  const next = continuation({
    title: current.title || titleFrom(session.toSaved()) || 'Chat',
    path: current.path,
    messages: session.messages,
    latest: session.compactions.at(-1)?.record ?? null,
    budget: budgetsFor(settings, windowFor(settings)).blockBudget,
    model: settings.model.trim(),
    now,
    newId,
  });
  await conversations.startWith(next.items, next.title);
  return next;
}
