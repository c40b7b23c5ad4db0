// The `search_conversations` tool: the model searches the user's other saved conversations when the
// user refers to an earlier chat ("what did we decide about the pond liner last week?"). A second
// tool rather than a scope on `search_history`: that one is offered only once this chat has
// compacted text and searches this chat's messages by id; this one is offered whenever other saved
// conversations exist, and its results name a conversation (title, date, note link). Two plainly
// named tools are also what small local models choose between most reliably — an optional "scope"
// argument is one they tend to leave out. Read-only, so it needs no approval.
import { fitQuoted } from './fit-quoted';
import type { ToolCall, ToolDefinition } from '../core/messages';
import { parseToolArguments } from '../core/messages';
import type { ConversationHit } from './conversation-index';

export const SEARCH_CONVERSATIONS = 'search_conversations';

/** Kept short: it goes with every request while other conversations exist. */
export const CONVERSATIONS_TOOL_DEFINITION: ToolDefinition = {
  name: SEARCH_CONVERSATIONS,
  description: "Search the user's earlier saved chats (not this one). Use when the user refers to something said in another conversation.",
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
  },
};

/** Tokens a result may take at most, as the history tool's. */
export const CONVERSATIONS_RESULT_TOKENS = 1_500;
const DEFAULT_LIMIT = 6;
const MAX_LIMIT = 20;

/** What the tool reads: the other saved conversations (main.ts: the conversation index, leaving the
 * open conversation out). */
export interface PastConversations {
  /** Whether any other saved conversation exists (asked before every request: must be cheap). */
  available(): boolean;
  /** Messages found in the other conversations, conversations best first; the model asks. */
  search(query: string, limit: number): Promise<ConversationHit[]>;
}

/** Answers one call; never throws. */
export async function runConversationSearch(past: PastConversations, call: ToolCall): Promise<{ content: string; isError?: boolean }> {
  const args = parseToolArguments(call.arguments.trim() === '' ? { ...call, arguments: '{}' } : call);
  if (!args) return { content: `The arguments of ${SEARCH_CONVERSATIONS} are not a JSON object.`, isError: true };
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (!query) return { content: 'Give a "query" to search the earlier conversations for.', isError: true };
  const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.min(MAX_LIMIT, Math.floor(args.limit)) : DEFAULT_LIMIT;
  let hits: ConversationHit[];
  try {
    hits = await past.search(query, limit);
  } catch (error) {
    return { content: `The earlier conversations could not be searched: ${error instanceof Error ? error.message : String(error)}`, isError: true };
  }
  if (!hits.length) return { content: `No earlier conversation matches "${query}".` };
  return { content: fitHits(`Best matches for "${query}" in earlier conversations, best first:`, hits) };
}

/** A hit's label: the conversation (title, date, a link to its note) and the message. */
export function hitLabel(hit: ConversationHit): string {
  const date = hit.date > 0 ? ` · ${new Date(hit.date).toISOString().slice(0, 10)}` : '';
  const link = `[[${hit.path.replace(/\.md$/, '')}]]`;
  return `[conversation "${hit.title}"${date} · ${link} · message ${hit.index + 1} · ${hit.role}]`;
}

/** The heading and the hits, verbatim, within {@link CONVERSATIONS_RESULT_TOKENS}: a message that
 * does not fit whole is cut at a word and marked. */
function fitHits(heading: string, hits: readonly ConversationHit[]): string {
  return fitQuoted(heading, hits.map((hit) => ({ label: hitLabel(hit), text: hit.text, rest: 'open the note to read it all' })), CONVERSATIONS_RESULT_TOKENS);
}
