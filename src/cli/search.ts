// `compact-chat search FILE QUERY` / `--queries FILE`: the k best messages of one conversation for
// each query, ranked by the core's history search (text and speaker, neighbours' share, the speaker a
// question points at; the asker is the person running it). One index per conversation, built once for every query of the run.
import { type ChatMessage, HistoryIndex } from '../core';

export interface SearchResult {
  /** 0-based position of the message in the conversation as read. */
  index: number;
  role: string;
  score: number;
  text: string;
}

/** One ranked list per query, in query order. */
export function searchConversation(messages: readonly ChatMessage[], queries: readonly string[], k: number): SearchResult[][] {
  const index = new HistoryIndex<number>((i) => messages[i]?.content ?? '');
  messages.forEach((m, i) => index.add(i, m.content, m.role));
  // A person asks: "I" points at the user's messages, "you" at the assistant's.
  return queries.map((q) =>
    index.search(q, k, 'user').map((h) => {
      const m = messages[h.key] as ChatMessage;
      return { index: h.key, role: m.role, score: Math.round(h.score * 1000) / 1000, text: m.content };
    }),
  );
}

/** JSON: one line per query (an array, best first). */
export function searchJson(results: readonly (readonly object[])[]): string {
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
