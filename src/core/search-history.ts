// Searching a conversation's own messages with the ranked search (search.ts): what a message is
// indexed as (its text and who said it, so "what did John say about …" finds John's turns), and a
// ranking that adds a share of the neighbouring messages' scores (an answer often sits in the
// reply to the turn that names the subject) and favours the speaker a question points at ("what
// did you recommend" asks for the other side's messages, "what did I buy" for the asker's). Used
// by the history tool, the compaction panel's search box, the CLI and the bench.
import type { ToolDefinition } from './messages';
import { CLOSE_TAG } from './block-format';
import { type SearchHit, SearchIndex, type SearchOptions, parseQuery, topSlots } from './search';
import { searchTerms } from './search-terms';

/** Share of each neighbour's score a message receives. */
export const NEIGHBOUR_SHARE = 0.2;
/** Factor on the score of messages by the speaker a question points at. */
export const SPEAKER_BOOST = 2;
/** How the history's index ranks: length normalisation milder than BM25's usual 0.75 (a chat mixes
 * one-line turns with page-long answers, and the long ones otherwise sink), and stopwords at half
 * weight rather than dropped ("I", "my", "you" tell whose message is asked for). Chosen on half of
 * the kit's conversations and checked on the other half: see bench/search.mjs. */
export const HISTORY_INDEX_OPTIONS = { b: 0.5, stopwordWeight: 0.5 } as const;

/** Who asks: a person (the CLI, the panel's search box) or the model (the history tool). */
export type Asker = 'user' | 'assistant';

/** A message as indexed: its text, and the speaker's name or role as a light field. */
export function historyFields(text: string, speaker: string): { text: string; weight: number }[] {
  return [
    { text, weight: 1 },
    { text: speaker, weight: 0.5 },
  ];
}

const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself']);
const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself']);

/** The role a question points at by its pronouns, from the asker's side: "you" names the other
 * side (a question to the assistant about what it said); failing that, "I"/"my" names the asker.
 * "You" wins when both occur because "I" is mostly the question's frame ("I was wondering …")
 * while "you" in a question names whose words are sought ("… the companies you mentioned"). */
export function pointedRole(query: string, asker: Asker): Asker | null {
  const words = searchTerms(query, { stem: false });
  const other: Asker = asker === 'user' ? 'assistant' : 'user';
  if (words.some((w) => SECOND_PERSON.has(w))) return other;
  if (words.some((w) => FIRST_PERSON.has(w))) return asker;
  return null;
}

export interface RankOptions<K> {
  /** Share of a neighbour's score a message receives ({@link NEIGHBOUR_SHARE}). */
  share?: number;
  /** The role of the message stored under a key, and who asks: together they let a question's
   * pronouns favour one speaker's messages ({@link SPEAKER_BOOST}). */
  roleOf?: (key: K) => string | undefined;
  asker?: Asker;
}

/** The best `limit` documents for `query`, each scored with a share of the documents added just
 * before and after it (neighbours in insertion order: conversation order), then the pointed
 * speaker's messages favoured. With a quoted phrase, only documents holding it are returned. */
export function rankWithNeighbours<K>(index: SearchIndex<K>, query: string, limit: number, options: RankOptions<K> = {}): SearchHit<K>[] {
  const share = options.share ?? NEIGHBOUR_SHARE;
  const own = index.scores(query);
  const combined = share > 0 ? new Float64Array(own.length) : own;
  if (share > 0) {
    const last = own.length - 1;
    for (let slot = 0; slot <= last; slot++) {
      const score = own[slot] as number;
      if (!score) continue;
      combined[slot] = (combined[slot] as number) + score;
      // A removed neighbour gets a share too; it is zeroed below.
      if (slot > 0) combined[slot - 1] = (combined[slot - 1] as number) + share * score;
      if (slot < last) combined[slot + 1] = (combined[slot + 1] as number) + share * score;
    }
  }
  // A quoted phrase is a filter: a neighbour lacking it is no hit, whatever share it received.
  if (share > 0 && parseQuery(query).phrases.length) for (let slot = 0; slot < own.length; slot++) if (!own[slot]) combined[slot] = 0;
  const pointed = options.roleOf && options.asker ? pointedRole(query, options.asker) : null;
  for (let slot = 0; slot < combined.length; slot++) {
    if (!combined[slot]) continue;
    const key = index.keyAt(slot);
    if (key === undefined) combined[slot] = 0;
    else if (pointed && options.roleOf?.(key) === pointed) combined[slot] = (combined[slot] as number) * SPEAKER_BOOST;
  }
  return index.hits(topSlots(combined, limit));
}

/** A conversation's messages as searched: the index with {@link HISTORY_INDEX_OPTIONS}, each
 * message's role kept for the speaker a question points at. Messages are added in conversation
 * order (neighbours are the messages added just before and after). */
export class HistoryIndex<K> {
  private readonly index: SearchIndex<K>;
  private readonly roles = new Map<K, string>();

  /** `textOf` reads a message's text back for phrase checks (the index keeps no copy). */
  constructor(textOf: (key: K) => string, options: SearchOptions<K> = {}) {
    this.index = new SearchIndex<K>({ ...HISTORY_INDEX_OPTIONS, ...options, textOf });
  }

  get size(): number {
    return this.index.size;
  }

  /** Adds a message: its text, its role, and the name shown for the speaker (the role when none). */
  add(key: K, text: string, role: string, speaker = role): void {
    this.roles.set(key, role);
    this.index.add(key, historyFields(text, speaker));
  }

  /** The best `limit` messages for `query`, asked by `asker`. */
  search(query: string, limit: number, asker: Asker): SearchHit<K>[] {
    return rankWithNeighbours(this.index, query, limit, { roleOf: (key) => this.roles.get(key), asker });
  }
}

/** The tool's name, the line the block carries while it is offered, and its definition: shared by
 * the session that offers it and the CLI replay that counts what the session sends. */
export const SEARCH_HISTORY = 'search_history';
/** Characters of compacted text below which the tool is not offered: its definition and line
 * (about 85 tokens, some 340 characters of English, on every request) would cost about as much as
 * the few short messages it could reach, and a "Compact now" on a short chat would make the
 * prompt grow. */
export const HISTORY_MIN_CHARS = 1_000;
/** Smallest context window the tool is offered in. From 4k up, `npm run bench:policy` meets every
 * target with the tool offered (its line counts as a fixed part, so the block's budget leaves it
 * room). Below, the latest request alone often outgrows the room already, and the tool's ~85
 * tokens about tripled the requests sent over the compaction point in a 2k window (146 → 424). */
export const HISTORY_MIN_WINDOW = 4_096;

/** Whether the history tool is worth offering: enough compacted text, and a window it fits in. */
export function historyWorthOffering(compactedChars: number, window: number): boolean {
  return compactedChars >= HISTORY_MIN_CHARS && window >= HISTORY_MIN_WINDOW;
}
/** Matches returned by default, and at most (a `limit` argument is honoured though the terse
 * definition does not advertise it). */
export const HISTORY_DEFAULT_LIMIT = 5;
export const HISTORY_MAX_LIMIT = 20;

/** The line the `<previous_context>` block carries while the tool is offered: short, since it is
 * sent with every request (the tool's own description says the rest). */
export const HISTORY_LINE = `Older messages: search them with ${SEARCH_HISTORY}.`;

/** Kept terse on purpose: the definition goes with every request while the tool is offered, and in
 * a 4k window every token of it is one the conversation does not get. */
export const HISTORY_TOOL_DEFINITION: ToolDefinition = {
  name: SEARCH_HISTORY,
  description: 'Search older messages of this chat; results carry ids. "Quote" exact phrases; around=<id> returns the messages near one.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      around: { type: 'string' },
    },
  },
};

/** The block with {@link HISTORY_LINE} as its last line, before the closing tag. Added when the
 * block is sent, not by render.ts: the record's block stays what the compaction rendered. */
export function withHistoryLine(block: string): string {
  const at = block.lastIndexOf(CLOSE_TAG);
  return at < 0 ? block : `${block.slice(0, at)}${HISTORY_LINE}\n${block.slice(at)}`;
}
