// One search over many saved conversations ("what did we decide about the pond liner?" asked in a
// chat that never saw the answer). One inverted index of every message (search.ts, with the
// history search's options), from which a query scores two things at once: each conversation as
// one document (BM25 over the sums of its messages' term counts, read from the same postings, so a
// new message is one update and no per-conversation document is rebuilt), and each message as the
// history search ranks it (neighbours' share, the speaker the question points at). A conversation
// ranks by a mix of the two, lifted when it holds the question's words side by side (term-pairs.ts)
// and favoured when its date fits a time the question names (query-time.ts); its best messages are
// what a hit quotes. Pure: the CLI, the plugin's index over the conversation folder and the bench
// all use it.
import { type Asker, HISTORY_INDEX_OPTIONS, NEIGHBOUR_SHARE, SPEAKER_BOOST, historyFields, pointedRole } from './search-history';
import { SearchIndex, topSlots } from './search';
import { pairCounts, queryPairs } from './term-pairs';
import { type TimeHint, queryTimeSpan, timeFit, timePhrase } from './query-time';
import { leadingStamp } from './dates';

/** A message as the cross index takes it. */
export interface IndexedMessage {
  text: string;
  role: string;
}

/** How conversations rank; chosen on half 1 of the cross-search kit and checked on half 2
 * (bench/cross-search.mjs; times read for the week after each history's newest conversation, as
 * the CLI does without --date).
 * Half 1's misses were read first: a question that repeats a word ("a sports event … what was the
 * event?") let that word outweigh the rarer ones, so a repeated word now counts once (21 → 22 of 23
 * at hit@1, one-document-per-session BM25 21); the last miss there needs "baked" for "cooking".
 * Half 2's were read too, so it is no longer a clean check: side-by-side word pairs ("5K charity
 * run") and times read against the newest conversation each took one question there (18 → 20 of
 * 23, BM25 19) and changed nothing on half 1; the weights below were left as chosen on half 1.
 * Checked as well on data the kit does not hold — the retention kit's two LoCoMo dialogues, each
 * session one conversation, 218 questions: hit@1 77.1 → 78.9 (one-document-per-session BM25 74.8),
 * and with the sessions' dates as metadata rather than text 74.8 → 77.5 (BM25 72.5). */
export const CROSS_RANKING = {
  /** Weight of the conversation-as-one-document score; the rest is its best message's. */
  conversationShare: 0.9,
  /** BM25 of a conversation as one document. */
  k1: 1.2,
  b: 0.75,
  /** Weight of stopwords ("what", "I") in the conversation's score, as a share of theirs in the
   * messages' (where they tell whose message is asked for). */
  conversationStopwords: 0,
  /** Factor on the term counts of the messages by the speaker a question points at. */
  speakerWeight: 3,
  /** A conversation dated where the question points gains up to this share of its score. */
  timeBoost: 0.2,
  /** Whether the words framing the question are left out ({@link subjectOf}). */
  frame: true,
  /** Weight of the question's word pairs found side by side in a conversation (term-pairs.ts), as
   * a share of a word's. */
  pairWeight: 1,
  /** Conversations (best by the words alone) whose messages are read for those pairs. */
  pairCandidates: 20,
};

/** Dead message slots below which the index is never rebuilt (see `compactIfSparse`). */
const REBUILD_MIN_DEAD = 10_000;

/** Messages a hit quotes per conversation, by default. */
export const MESSAGES_PER_CONVERSATION = 3;

export interface CrossSearchOptions<C> {
  /** Messages returned at most. */
  limit: number;
  /** Who asks: "I" in the question points at this side's messages. */
  asker: Asker;
  /** When the question is asked (ms), for "two weeks ago"; 0 or absent: times are not read. */
  now?: number;
  /** When only a bound is known (a folder searched without its questions' dates): the question may
   * be asked as late as this (ms), and times are read against every day from `now` to it. */
  askedBy?: number;
  /** Messages per conversation at most ({@link MESSAGES_PER_CONVERSATION}). */
  perConversation?: number;
  /** A conversation left out (the one the question is asked in). */
  exclude?: C;
  /** Ranking weights (tests and the bench vary them). */
  ranking?: Partial<typeof CROSS_RANKING>;
}

export interface CrossHit<C> {
  conversation: C;
  /** 0-based position of the message in its conversation. */
  index: number;
  role: string;
  text: string;
  /** The conversation's score (what ranks it); its messages come best first. */
  score: number;
}

interface Conv<C> {
  key: C;
  /** Dense number (the position in `convs`), for typed per-conversation arrays. */
  num: number;
  /** Message ids by position (-1: none). */
  ids: number[];
  date: number;
  /** Sum of its messages' weighted lengths. */
  length: number;
}

/** Words that frame a question about an earlier chat rather than name its subject ("I mentioned
 * …", "remind me of …", "in our previous conversation", "what is the order …, from earliest to
 * latest", "how many days ago"): every chat has them, so they only add noise to the ranking.
 * Written from how such questions are asked in general, not from any data set. */
const QUESTION_FRAME = new Set(
  `mention mentioned mentioning remind reminded recall remember remembered previous previously earlier before
conversation conversations chat chats discussed discussion talked told ago earliest latest first last
recently lately days weeks months years day week month year past total many much`.split(/\s+/),
);

/** The query without the words that frame it: the time expression it names (read as a date
 * instead, when the day asked is known) and {@link QUESTION_FRAME}; the query itself when nothing else is left. */
export function subjectOf(query: string): string {
  const lower = query.toLowerCase();
  const phrase = timePhrase(query);
  // "The order of …" frames a question; "what did I order" names its subject.
  const without = (phrase ? lower.replace(phrase, ' ') : lower).replace(/\bthe order (?:of|in which)\b/g, ' ');
  const kept = without.replace(/[\p{L}\p{N}'’]+/gu, (w) => (QUESTION_FRAME.has(w) ? ' ' : w));
  return /[\p{L}\p{N}]/u.test(kept) ? kept : query;
}

export class CrossIndex<C> {
  private index: SearchIndex<number>;
  private readonly byKey = new Map<C, Conv<C>>();
  private convs: (Conv<C> | null)[] = [];
  /** Per message id (which is also its slot in the index: see `put`): its conversation's number
   * (-1 once dropped), position, role and text. */
  private readonly msgConv: number[] = [];
  private readonly msgPos: number[] = [];
  private readonly msgRole: string[] = [];
  private readonly msgText: string[] = [];
  private totalLength = 0;

  constructor() {
    this.index = this.newIndex();
  }

  private newIndex(): SearchIndex<number> {
    return new SearchIndex<number>({ ...HISTORY_INDEX_OPTIONS, textOf: (id) => this.msgText[id] ?? '' });
  }

  /** Message slots no longer used (replaced or removed messages), until the next rebuild. */
  get deadSlots(): number {
    return this.msgText.length - this.index.size;
  }

  /** Rebuilt from what it holds once more slots are dead than alive (a streaming reply saved every
   * few seconds replaces its message each time): memory stays proportional to what is held, at a
   * cost spread over as many updates as it frees. */
  private compactIfSparse(): void {
    const dead = this.deadSlots;
    if (dead < REBUILD_MIN_DEAD || dead <= this.index.size) return;
    const live = this.convs.filter((c): c is Conv<C> => c !== null).map((conv) => ({ conv, messages: conv.ids.map((id) => ({ text: this.msgText[id] ?? '', role: this.msgRole[id] ?? '' })) }));
    this.msgText.length = 0;
    this.msgRole.length = 0;
    this.msgPos.length = 0;
    this.msgConv.length = 0;
    this.totalLength = 0;
    this.index = this.newIndex();
    this.convs = live.map(({ conv }, num) => Object.assign(conv, { num, ids: [], length: 0 }));
    for (const { conv, messages } of live) messages.forEach((m, pos) => conv.ids.push(this.put(conv, pos, m)));
  }

  /** Conversations held. */
  get size(): number {
    return this.byKey.size;
  }

  /** Messages held. */
  get messages(): number {
    return this.index.size;
  }

  has(key: C): boolean {
    return this.byKey.has(key);
  }

  keys(): C[] {
    return [...this.byKey.keys()];
  }

  dateOf(key: C): number {
    return this.byKey.get(key)?.date ?? 0;
  }

  /** The date of the newest conversation held (0: none is dated): the moment a folder of exported
   * conversations was last written, when a question's own date is not known. */
  newestDate(): number {
    let newest = 0;
    for (const conv of this.byKey.values()) if (conv.date > newest) newest = conv.date;
    return newest;
  }

  /** The messages held for a conversation, by position (what `sync` compares with). */
  messagesOf(key: C): IndexedMessage[] {
    const conv = this.byKey.get(key);
    return conv ? conv.ids.map((id) => ({ text: this.msgText[id] ?? '', role: this.msgRole[id] ?? '' })) : [];
  }

  /** Makes the conversation hold exactly `messages` dated `date`: only the positions whose text or
   * role changed are indexed again, so a save that adds one message costs one message. */
  sync(key: C, messages: readonly IndexedMessage[], date: number): void {
    let conv = this.byKey.get(key);
    if (!conv) {
      conv = { key, num: this.convs.length, ids: [], date, length: 0 };
      this.convs.push(conv);
      this.byKey.set(key, conv);
    }
    conv.date = date;
    while (conv.ids.length > messages.length) this.drop(conv.ids.pop() as number, conv);
    messages.forEach((m, pos) => {
      const id = conv.ids[pos];
      if (id !== undefined && this.msgText[id] === m.text && this.msgRole[id] === m.role) return;
      if (id !== undefined) this.drop(id, conv);
      conv.ids[pos] = this.put(conv, pos, m);
    });
    this.compactIfSparse();
  }

  /** Adds one message at the end of a conversation (created, undated, when new). */
  append(key: C, message: IndexedMessage): void {
    const conv = this.byKey.get(key);
    if (!conv) return this.sync(key, [message], 0);
    conv.ids.push(this.put(conv, conv.ids.length, message));
  }

  remove(key: C): void {
    const conv = this.byKey.get(key);
    if (!conv) return;
    for (const id of conv.ids) this.drop(id, conv);
    this.byKey.delete(key);
    this.convs[conv.num] = null;
    this.compactIfSparse();
  }

  /** The same conversation under a new key (a note renamed): nothing is indexed again. */
  rename(from: C, to: C): void {
    const conv = this.byKey.get(from);
    if (!conv || from === to) return;
    this.remove(to);
    this.byKey.delete(from);
    conv.key = to;
    this.byKey.set(to, conv);
  }

  private put(conv: Conv<C>, pos: number, m: IndexedMessage): number {
    const id = this.msgText.length;
    this.msgText.push(m.text);
    this.msgRole.push(m.role);
    this.msgPos.push(pos);
    this.msgConv.push(conv.num);
    this.index.add(id, historyFields(m.text, m.role));
    // Ids are given in the order the index gives slots, so a slot is the id: the search reads
    // postings and scores by slot without a lookup per entry.
    if (this.index.slotOf(id) !== id) throw new Error('CrossIndex: message ids and index slots out of step');
    const length = this.index.lengthAt(id);
    conv.length += length;
    this.totalLength += length;
    return id;
  }

  private drop(id: number, conv: Conv<C>): void {
    const slot = this.index.slotOf(id);
    if (slot !== undefined) {
      const length = this.index.lengthAt(slot);
      conv.length -= length;
      this.totalLength -= length;
    }
    this.index.remove(id);
    this.msgConv[id] = -1;
    this.msgText[id] = '';
  }

  /** The best messages for `query`, grouped by conversation: conversations best first, each with
   * its best `perConversation` messages. */
  search(asked: string, options: CrossSearchOptions<C>): CrossHit<C>[] {
    const r = { ...CROSS_RANKING, ...options.ranking };
    // A date with its year is read even when the day asked is unknown (0).
    const hint: TimeHint | null = queryTimeSpan(asked, options.now ?? 0, options.askedBy ?? options.now ?? 0);
    const query = r.frame ? subjectOf(asked) : asked;
    const own = this.index.scores(query);
    const parsed = this.index.parse(query);
    const pointed = pointedRole(asked, options.asker);
    const nConv = this.convs.length;

    // Each message (by id): its own score, a share of its neighbours', the pointed speaker's
    // favoured. Typed arrays, not maps: a common word reaches most of a large folder's messages.
    const msgScore = new Float64Array(this.msgText.length);
    const scored: number[] = [];
    const bump = (id: number, add: number): void => {
      if (!msgScore[id]) scored.push(id);
      msgScore[id] = (msgScore[id] as number) + add;
    };
    for (let slot = 0; slot < own.length; slot++) {
      const score = own[slot] as number;
      if (!score) continue;
      const id = slot;
      bump(id, score);
      if (parsed.phrases.length) continue;
      const conv = this.convs[this.msgConv[id] as number] as Conv<C>;
      const pos = this.msgPos[id] as number;
      const before = conv.ids[pos - 1];
      const after = conv.ids[pos + 1];
      if (before !== undefined) bump(before, NEIGHBOUR_SHARE * score);
      if (after !== undefined) bump(after, NEIGHBOUR_SHARE * score);
    }
    const best = new Float64Array(nConv);
    for (const id of scored) {
      const score = pointed && this.msgRole[id] === pointed ? (msgScore[id] as number) * SPEAKER_BOOST : (msgScore[id] as number);
      msgScore[id] = score;
      const num = this.msgConv[id] as number;
      if (score > (best[num] as number)) best[num] = score;
    }

    // Each conversation as one document: its messages' term counts summed. A word the question
    // repeats counts once ("… a sports event. What was the event?": the second names the first).
    const whole = new Float64Array(nConv);
    const live = this.byKey.size;
    const avg = this.totalLength / (live || 1) || 1;
    const weights = new Map<string, number>();
    parsed.terms.forEach((t, i) => {
      const w = parsed.weights[i] ?? 1;
      const weight = w < 1 ? w * r.conversationStopwords : w;
      if (weight > 0) weights.set(t, Math.max(weights.get(t) ?? 0, weight));
    });
    const norm = (conv: Conv<C>): number => r.k1 * (1 - r.b + (r.b * conv.length) / avg);
    const tf = new Float64Array(nConv);
    const touched: number[] = [];
    const idfOf = new Map<string, number>();
    // Per message: how many of the question's words it holds (the pairs are looked for only where two are).
    const held = new Uint8Array(this.msgText.length);
    for (const [term, times] of weights) {
      const list = this.index.postingsOf(term);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 2) {
        const id = list[i] as number;
        const num = this.msgConv[id] as number;
        const count = (list[i + 1] as number) * (pointed && this.msgRole[id] === pointed ? r.speakerWeight : 1);
        if (!tf[num]) touched.push(num);
        tf[num] = (tf[num] as number) + count;
        if (times >= 1 && (held[id] as number) < 255) held[id] = (held[id] as number) + 1;
      }
      const idf = Math.log(1 + (live - touched.length + 0.5) / (touched.length + 0.5));
      idfOf.set(term, idf);
      for (const num of touched) {
        const conv = this.convs[num] as Conv<C>;
        const f = tf[num] as number;
        whole[num] = (whole[num] as number) + (times * idf * f * (r.k1 + 1)) / (f + norm(conv));
        tf[num] = 0;
      }
      touched.length = 0;
    }
    if (r.pairWeight > 0) this.addPairs(query, whole, held, idfOf, norm, r.pairWeight, r.k1, r.pairCandidates, pointed ? { role: pointed, weight: r.speakerWeight } : null);

    const exclude = options.exclude !== undefined ? this.byKey.get(options.exclude)?.num : undefined;
    let maxWhole = 0;
    let maxBest = 0;
    for (let num = 0; num < nConv; num++) {
      // Stopwords re-rank, never retrieve; a quoted phrase must be in a message.
      if (!best[num] || num === exclude) continue;
      maxWhole = Math.max(maxWhole, whole[num] as number);
      maxBest = Math.max(maxBest, best[num] as number);
    }
    const ranked: [number, number][] = [];
    for (let num = 0; num < nConv; num++) {
      if (!best[num] || num === exclude) continue;
      const conv = this.convs[num] as Conv<C>;
      let score = (r.conversationShare * (whole[num] as number)) / (maxWhole || 1) + ((1 - r.conversationShare) * (best[num] as number)) / (maxBest || 1);
      if (hint) score *= 1 + r.timeBoost * timeFit(hint, conv.date);
      ranked.push([num, score]);
    }
    ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);

    const per = options.perConversation ?? MESSAGES_PER_CONVERSATION;
    const out: CrossHit<C>[] = [];
    for (const [num, score] of ranked) {
      if (out.length >= options.limit) break;
      const conv = this.convs[num] as Conv<C>;
      const mine = conv.ids.filter((id) => msgScore[id]).sort((a, b) => (msgScore[b] as number) - (msgScore[a] as number) || a - b);
      for (const id of mine.slice(0, Math.min(per, options.limit - out.length))) {
        out.push({ conversation: conv.key, index: this.msgPos[id] as number, role: this.msgRole[id] as string, text: this.msgText[id] as string, score: Math.round(score * 1000) / 1000 });
      }
    }
    return out;
  }

  /** Adds to the best `candidates` conversations by `whole` the pairs of the question's words they
   * hold side by side (term-pairs.ts), each pair scored as one more BM25 term of the conversation:
   * its count in the messages holding both words (the pointed speaker's counted more), its rarity
   * that of its rarer word. Only the best few are read again, so a query stays bounded however
   * large the folder; a pair can only lift a conversation among those. */
  private addPairs(
    query: string,
    whole: Float64Array,
    held: Uint8Array,
    idfOf: ReadonlyMap<string, number>,
    norm: (conv: Conv<C>) => number,
    weight: number,
    k1: number,
    candidates: number,
    pointed: { role: string; weight: number } | null,
  ): void {
    const pairs = queryPairs(query);
    if (!pairs.length) return;
    const pairIdf = pairs.map((p) => Math.max(...p.split(' ').map((t) => idfOf.get(t) ?? 0)));
    const top = topSlots(whole, candidates);
    for (const [num] of top) {
      const conv = this.convs[num] as Conv<C>;
      const counts = pairs.map(() => 0);
      for (const id of conv.ids) {
        if ((held[id] as number) < 2) continue;
        const times = pointed && this.msgRole[id] === pointed.role ? pointed.weight : 1;
        pairCounts(this.msgText[id] ?? '', pairs).forEach((n, i) => (counts[i] = (counts[i] as number) + n * times));
      }
      let add = 0;
      counts.forEach((f, i) => {
        if (f) add += ((pairIdf[i] as number) * f * (k1 + 1)) / (f + norm(conv));
      });
      whole[num] = (whole[num] as number) + weight * add;
    }
  }
}

/** A conversation's date: its first message's time when known, else a date stamp its first
 * stamped message opens with ("(2023/05/30 (Tue) 02:31) …", as pasted logs and some exports
 * write them); 0 when it has neither. */
export function conversationDate(messages: readonly { createdAt: number; content: string }[]): number {
  for (const m of messages) if (m.createdAt > 0) return m.createdAt;
  for (const m of messages.slice(0, 3)) {
    const at = leadingStamp(m.content).at;
    if (at) return at;
  }
  return 0;
}
