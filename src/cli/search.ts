// `compact-chat search FILE QUERY` / `--queries FILE`: the k best messages of one conversation for
// each query, ranked by the core's search as the history tool ranks (text and speaker, neighbours'
// share). One index per conversation, built once for every query of the run.
import { type ChatMessage, SearchIndex, historyFields, rankWithNeighbours } from '../core';

export interface SearchResult {
  /** 0-based position of the message in the conversation as read. */
  index: number;
  role: string;
  score: number;
  text: string;
}

/** One ranked list per query, in query order. */
export function searchConversation(messages: readonly ChatMessage[], queries: readonly string[], k: number): SearchResult[][] {
  const index = new SearchIndex<number>({ textOf: (i) => messages[i]?.content ?? '' });
  messages.forEach((m, i) => index.add(i, historyFields(m.content, m.role)));
  return queries.map((q) =>
    rankWithNeighbours(index, q, k).map((h) => {
      const m = messages[h.key] as ChatMessage;
      return { index: h.key, role: m.role, score: Math.round(h.score * 1000) / 1000, text: m.content };
    }),
  );
}

/** JSON: one line per query (an array, best first). */
export function searchJson(results: readonly SearchResult[][]): string {
  return results.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Text: the query, then one line per match (position, role, score, the text on one line). */
export function searchText(queries: readonly string[], results: readonly SearchResult[][]): string {
  return queries
    .map((q, i) => {
      const rows = results[i] ?? [];
      const lines = rows.map((r, rank) => `${rank + 1}. [${r.index}] ${r.role} (${r.score}): ${r.text.replace(/\s+/g, ' ').trim()}`);
      return `${q}\n${lines.length ? lines.join('\n') : '(no match)'}\n`;
    })
    .join('\n');
}
