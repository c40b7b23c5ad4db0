// Searching a conversation's own messages with the ranked search (search.ts): what a message is
// indexed as (its text and who said it, so "what did John say about …" finds John's turns), and a
// ranking that adds a share of the neighbouring messages' scores (an answer often sits in the
// reply to the turn that names the subject). Used by the history tool, the CLI and the bench.
import type { ToolDefinition } from './messages';
import { CLOSE_TAG } from './render';
import type { SearchHit, SearchIndex } from './search';

/** Share of each neighbour's score a message receives (measured on the kit: see bench/search.mjs). */
export const NEIGHBOUR_SHARE = 0.3;

/** A message as indexed: its text, and the speaker's name or role as a light field. */
export function historyFields(text: string, speaker: string): { text: string; weight: number }[] {
  return [
    { text, weight: 1 },
    { text: speaker, weight: 0.5 },
  ];
}

/** The best `limit` documents for `query`, each scored with {@link NEIGHBOUR_SHARE} of the
 * documents added just before and after it (neighbours in insertion order: conversation order). */
export function rankWithNeighbours<K>(index: SearchIndex<K>, query: string, limit: number, share = NEIGHBOUR_SHARE): SearchHit<K>[] {
  const own = index.scores(query);
  const combined = new Map<number, number>();
  for (const [slot, score] of own) {
    combined.set(slot, (combined.get(slot) ?? 0) + score);
    if (share <= 0) continue;
    for (const n of [slot - 1, slot + 1]) if (index.keyAt(n) !== undefined) combined.set(n, (combined.get(n) ?? 0) + share * score);
  }
  const ranked = [...combined.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const out: SearchHit<K>[] = [];
  for (const [slot, score] of ranked) {
    if (out.length >= limit) break;
    const key = index.keyAt(slot);
    if (key !== undefined) out.push({ key, score });
  }
  return out;
}

/** The tool's name, the line the block carries while it is offered, and its definition: shared by
 * the session that offers it and the CLI replay that counts what the session sends. */
export const SEARCH_HISTORY = 'search_history';
/** Characters of compacted text below which the tool is not offered: its definition (about 150
 * tokens on every request) would cost more than the few short messages it could reach, and a
 * "Compact now" on a short chat would make the prompt grow. */
export const HISTORY_MIN_CHARS = 2_000;
/** Smallest context window the tool is offered in: below it, its definition and the block's line
 * (about 180 tokens on every request) take room the compaction policy sized for the conversation,
 * and requests end up over the compaction point (measured with `npm run bench:policy`). */
export const HISTORY_MIN_WINDOW = 16_384;

/** Whether the history tool is worth offering: enough compacted text, and a window it fits in. */
export function historyWorthOffering(compactedChars: number, window: number): boolean {
  return compactedChars >= HISTORY_MIN_CHARS && window >= HISTORY_MIN_WINDOW;
}
/** Matches returned by default, and at most. */
export const HISTORY_DEFAULT_LIMIT = 5;
export const HISTORY_MAX_LIMIT = 20;

/** The line the `<previous_context>` block carries while the tool is offered. */
export const HISTORY_LINE = `Earlier messages of this conversation are not shown in full; search them with the ${SEARCH_HISTORY} tool.`;

export const HISTORY_TOOL_DEFINITION: ToolDefinition = {
  name: SEARCH_HISTORY,
  description:
    'Search the earlier messages of this conversation that were compacted and are no longer shown in full. Returns the best matches verbatim with who said them, when, and their id. Put exact phrases in "quotes". To read the messages around a match, call again with "around" set to its id.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words to search for (names, places, what was said).' },
      around: { type: 'string', description: 'A message id from an earlier result: returns the messages just before and after it.' },
      limit: { type: 'number', description: `How many matches to return (default ${HISTORY_DEFAULT_LIMIT}, at most ${HISTORY_MAX_LIMIT}).` },
    },
    required: [],
  },
};

/** The block with {@link HISTORY_LINE} as its last line, before the closing tag. Added when the
 * block is sent, not by render.ts: the record's block stays what the compaction rendered. */
export function withHistoryLine(block: string): string {
  const at = block.lastIndexOf(CLOSE_TAG);
  return at < 0 ? block : `${block.slice(0, at)}${HISTORY_LINE}\n${block.slice(at)}`;
}
