// The threads of a conversation: what it was about, as the skeleton of the carried context.
// The removed messages are cut into segments at session breaks (a date stamp opening a message,
// or hours between two messages) and, in a chat with an assistant, where the user opens a new
// request that shares little with what came before. With an assistant, a segment that comes back
// to an earlier thread's words joins it; between two people each session stays its own. Each thread gets a head made of its own words — the request that opened
// it, or its most distinctive phrases — its span of days and, for a request, whether it was
// answered. Facts are then spread over the threads and shown under their heads (render.ts).
import { memoOf } from './message-memo';
import { topCounts } from './top-counts';
import type { Sentence } from './extract-sentences';
import { isRequest } from './extract-goal';
import type { ChatMessage } from './messages';
import type { ConversationKind, ThreadLine } from './record';
import { FIRST_PERSON, MY, QUESTION } from './traits';
import { HEAD_PHRASES, TALK_TOPICS, describedText, followsUp, openingHead, phrasesOf, requestHead, topicalRequest } from './thread-heads';

export { followsUp };
import { isContentWord, vocabSize, wordOf } from './vocab';
import { messageWords, prose, sentencesByMessage, stampedMessage } from './message-words';

/** A word that points back at what was said before it. */
const LEANS = /\b(?:they|them|it|these|those|this)\b/i;

/** Hours between two messages that start a new session. */
const SESSION_GAP_MS = 3 * 3_600_000;
/** A new request in the same session opens a thread when at most this share of its words (the
 * request's sentences) were said in the thread so far. (Measured over the whole message at 0.12,
 * LongMemEval recall was 0.447/0.594/0.775; over the request at 0.16, 0.447/0.598/0.772, at 0.12
 * the same; over the whole message at 0.2 the 2,000 one fell to 0.764.) */
const SHIFT_OVERLAP = 0.16;
/** A segment joins an earlier thread when their word profiles are this close (cosine). */
const RETURN_SIMILARITY = 0.3;
/** The same for the thread just before it: a new session often goes on with it. */
const ADJACENT_SIMILARITY = 0.15;
/** Words kept as a thread's profile (for joining a later round's segments to it). */
const PROFILE_WORDS = 24;

/** An assistant naming itself as one. */
const SAYS_AI = /\b(?:as an AI\b|I(?:['’]m| am) an AI\b|AI (?:language )?(?:model|assistant)\b|as a (?:large )?language model\b)/i;

/** Two people talking, an assistant answering, or an agent at work with tools. */
export function conversationKind(messages: readonly ChatMessage[], sentences: readonly Sentence[]): ConversationKind {
  for (const m of messages) if (m.role === 'tool' || (m.role === 'assistant' && m.toolCalls?.length)) return 'work';
  for (const s of sentences) if (s.role === 'tool') return 'work';
  // The other side says "my …" about as often as the user (two people telling each other about
  // their lives), over a conversation long enough to tell, and the user rarely asks for anything.
  const mine = { user: 0, other: 0, userN: 0, otherN: 0 };
  let requests = 0;
  let userMessages = 0;
  let lastId = '';
  for (const s of sentences) {
    if (s.code) continue;
    // An assistant that says it is one ("As an AI language model, I …") is no friend telling of
    // their life, however often it says "my" in the stories it writes.
    if (s.role === 'assistant' && SAYS_AI.test(s.text)) return 'assist';
    const my = s.traits & MY ? 1 : 0;
    if (s.role === 'user') {
      mine.user += my;
      mine.userN++;
      if (s.id !== lastId) userMessages++;
      // ("Let's grab some food!" between friends is a plan, not a request to an assistant.)
      if (isRequest(s) && !/^(?:\w+[,!]?\s+)?let['’]?s\b/i.test(s.text)) requests++;
    } else if (s.role === 'assistant') {
      mine.other += my;
      mine.otherN++;
    }
    lastId = s.id;
  }
  // (The other side must say "my" at all: an assistant explaining things never does.)
  const personal = mine.otherN >= 6 && mine.userN >= 6 && mine.other >= 2 && mine.other / mine.otherN >= 0.35 * (mine.user / mine.userN);
  return personal && requests <= 0.4 * userMessages ? 'talk' : 'assist';
}

interface Segment {
  /** Message indices [start, end) among the removed messages. */
  start: number;
  end: number;
  /** Its prose sentences, one list per message (each message's own, never changed), and how many:
   * joined into one list only where they are read as one (`flatOf`), not pushed one by one. */
  parts: (readonly Sentence[])[];
  count: number;
  flat?: readonly Sentence[];
  /** The request that opened it, when a user's request did. */
  opener: Sentence[] | null;
  /** The first user message's prose sentences (the session's opening). */
  opening: Sentence[] | null;
  from: number;
  to: number;
  /** Word counts (vocabulary ids, content words only). */
  tf: Map<number, number>;
  /** Opened by no session break at the start of a later round. */
  continued?: boolean;
}


/** A segment's prose sentences as one list, joined once. */
function flatOf(seg: Segment): readonly Sentence[] {
  return (seg.flat ??= seg.parts.flat());
}

function segmentsOf(messages: readonly ChatMessage[], sentences: readonly Sentence[], kind: ConversationKind, earlierTo: number): Segment[] {
  const byMessage = sentencesByMessage(messages, sentences);
  const segments: Segment[] = [];
  let current: Segment | null = null;
  // (The last time an earlier round saw: the first segment may go on with its thread.)
  let lastAt = earlierTo;
  // The open segment's word counts in a typed array by id, made a Map (in first-seen order) once
  // the segment closes: one Map entry per distinct word, not one update per word said.
  const counts = new Int32Array(vocabSize());
  let seen: number[] = [];
  const close = (): void => {
    if (!current) return;
    for (let k = 0; k < seen.length; k++) {
      const id = seen[k] as number;
      current.tf.set(id, counts[id] as number);
      counts[id] = 0;
    }
    seen = [];
  };
  const open = (i: number, at: number): Segment => {
    close();
    const seg: Segment = { start: i, end: i, parts: [], count: 0, opener: null, opening: null, from: at, to: at, tf: new Map() };
    segments.push(seg);
    return seg;
  };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as ChatMessage;
    const own = byMessage[i] as readonly Sentence[];
    const at = own[0]?.at || (Number.isFinite(m.createdAt) && m.createdAt > 0 ? m.createdAt : 0) || lastAt;
    const stamped = m.role !== 'tool' && stampedMessage(m);
    const gap = at > 0 && lastAt > 0 && at - lastAt >= SESSION_GAP_MS;
    const request = m.role === 'user' && kind !== 'talk' ? requestSentences(m, own) : null;
    let shift = false;
    if (current && current.opener && request && !stamped && !gap && kind === 'assist') {
      // A new request that shares little with the thread so far opens a thread of its own.
      let words = 0;
      let shared = 0;
      // (The request's sentences only: "I'll definitely try out some of these variations. By the
      // way, do you have any advice on how to stay in touch with grandparents …?" shares the curry's
      // words before the request it moves on to.)
      for (let k = 0; k < request.length; k++) {
        const ids = (request[k] as Sentence).ids;
        for (let j = 0; j < ids.length; j++) {
          const id = ids[j] as number;
          if (!isContentWord(id)) continue;
          words++;
          if ((counts[id] as number) > 0) shared++;
        }
      }
      // (A request that points back at the answer — "put these in bullet points", "can you try
      // again?", "write a product description using the above" — goes on with it, whatever words
      // it shares: as a thread of its own it was headed by words that name nothing.)
      shift = words >= 3 && shared / words <= SHIFT_OVERLAP && !followsUp(request);
    }
    if (!current || stamped || gap || shift) {
      current = open(i, at);
      // The first segment of a later round, opened by no session break, goes on where the earlier
      // round stopped (the threads decide with its words whether it is the same thread).
      if (i === 0 && !stamped && !gap && earlierTo > 0) current.continued = true;
    }
    if (request && !current.opener) current.opener = request;
    if (m.role === 'user' && !current.opening) current.opening = own.filter(prose);
    current.end = i + 1;
    if (at > 0) {
      if (!current.from) current.from = at;
      current.to = at;
      lastAt = at;
    }
    // (Each prose sentence's content words counted once: the message's tally, read once; its
    // prose sentences are the tally's own list.)
    const words = messageWords(m, own);
    if (words.from.length) {
      current.parts.push(words.from);
      current.count += words.from.length;
    }
    for (let k = 0; k < words.ids.length; k++) {
      const id = words.ids[k] as number;
      const c = counts[id] as number;
      if (c === 0) seen.push(id);
      counts[id] = c + (words.counts[k] as number);
    }
  }
  close();
  return segments.filter((s) => s.count > 0);
}

/** Reads where a user message's request starts ahead of compaction (`prepareMessage`), with the
 * message's own sentences: the threads then find it read. */
export function prepareRequest(m: ChatMessage, own: readonly Sentence[]): void {
  if (m.role === 'user') requestSentences(m, own);
}

/** The sentences of a user message that make its request, from the first request sentence on. */
function requestSentences(m: ChatMessage, own: readonly Sentence[]): Sentence[] | null {
  // (Where the request starts is read once per message object: the sentences are the message's
  // cached ones, the same in every compaction.)
  const memo = memoOf(m);
  const hit = memo.request as { of: number; at: number } | undefined;
  let at: number;
  if (hit && hit.of === own.length) at = hit.at;
  else {
    // A request, or a question of some length ("Should the drippers run longer in July?").
    at = own.findIndex((s) => prose(s) && (isRequest(s) || ((s.traits & QUESTION) !== 0 && s.wc >= 5)));
    memo.request = { of: own.length, at };
  }
  return at < 0 ? null : own.slice(at).filter(prose);
}

/** Cosine of two word-count profiles, each word weighted by its rarity across the segments. */
function similarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [w, x] of a) {
    na += x * x;
    const y = b.get(w);
    if (y) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** A segment's profile: its content words with their counts. A word said in more than half of the
 * segments (the speakers' names, the conversation's standing subject) is left out: it would join
 * every thread to every other; a word two segments share is what links a thread that comes back,
 * so it is not weighed down. */
function profileOf(seg: Segment, df: ReadonlyMap<number, number>, n: number): Map<string, number> {
  const common = Math.max(2, Math.floor(n / 2));
  // (Whole within the round; what the record keeps for later rounds is its top words, topCounts.)
  const out = new Map<string, number>();
  for (const [id, tf] of seg.tf) if ((df.get(id) ?? 1) <= common) out.set(wordOf(id), tf);
  return out;
}

export interface ThreadsResult {
  threads: ThreadLine[];
  /** The thread of each removed message, by message id. */
  threadOf: Map<string, number>;
}

/**
 * Cuts the removed messages into threads (see the file comment), joining a segment to an earlier
 * thread — of this round or of `earlier` ones — whose words it comes back to. New threads are
 * numbered after `earlier`'s. `round` stamps the new lines.
 */
export function extractThreads(messages: readonly ChatMessage[], sentences: readonly Sentence[], kind: ConversationKind, earlier: readonly ThreadLine[], round: number): ThreadsResult {
  const threadOf = new Map<string, number>();
  const lastEarlier = earlier[earlier.length - 1];
  const segments = segmentsOf(messages, sentences, kind, lastEarlier?.to ?? 0);
  if (!segments.length) return { threads: [], threadOf };
  const df = new Map<number, number>();
  for (const seg of segments) for (const id of seg.tf.keys()) df.set(id, (df.get(id) ?? 0) + 1);
  const n = segments.length;
  const dfByWord = new Map<string, number>();
  for (const [id, c] of df) dfByWord.set(wordOf(id), c);
  // A phrase's words weighed by how few of the other segments say them: what names this thread.
  const rarity = (w: string): number => Math.log(1 + n / (dfByWord.get(w) ?? 1));
  // Between two people, squared: friends name the same things every time they talk ("Harry
  // Potter" headed five sessions of ten), and a head names what its session adds ("Edinburgh,
  // Scotland", "European vacation"). (LoCoMo recall 0.385/0.558/0.726 → 0.384/0.568/0.738 at
  // 500/1,000/2,000, event coverage at 1,000 0.590 → 0.625; powers from 1.5 to 3 did about the same.)
  const weight = kind === 'talk' ? (w: string): number => rarity(w) ** 2 : rarity;

  let nextId = earlier.reduce((m, t) => Math.max(m, t.id + 1), 1);
  const threads: ThreadLine[] = [];
  const profiles = new Map<number, Map<string, number>>();
  for (const t of earlier) profiles.set(t.id, new Map(Object.entries(t.profile ?? {})));
  let previousThread: ThreadLine | undefined = earlier[earlier.length - 1];
  for (const seg of segments) {
    const profile = profileOf(seg, df, n);
    let join: ThreadLine | undefined;
    let best = RETURN_SIMILARITY;
    // Between two people each session is a thread of its own: friends come back to the same
    // subjects every time they talk (basketball, books), and joining them made threads of months
    // that mixed everyone's news; what a reader follows is what each session brought (LoCoMo at
    // budget 2,000: recall 0.689 → 0.706).
    for (const t of kind === 'talk' ? [] : [...earlier, ...threads]) {
      const sim = similarity(profile, profiles.get(t.id) ?? new Map());
      // The thread just before goes on more readily than one that comes back after others.
      const bar = t === previousThread ? ADJACENT_SIMILARITY : RETURN_SIMILARITY;
      if (sim >= bar && sim >= best * (t === previousThread ? ADJACENT_SIMILARITY / RETURN_SIMILARITY : 1)) {
        best = sim;
        join = t;
      }
    }
    // The part of a session an earlier round stopped in goes on with its thread, unless a request
    // of its own that shares nothing with that thread opens it. (A new session without a request
    // of its own is a thread of its own unless its words join it to one: joining it to the thread
    // before made one thread of a sleep schedule and a trip to Disneyland.)
    if (!join && seg.continued && previousThread === lastEarlier && lastEarlier) {
      const words = seg.opener ? seg.opener.flatMap((x) => x.ids.filter(isContentWord).map(wordOf)) : [];
      const shared = words.filter((w) => w in (lastEarlier.profile ?? {})).length;
      if (!seg.opener || shared > SHIFT_OVERLAP * words.length) join = lastEarlier;
    }
    const state = seg.opener ? (seg.parts.some((part) => part.some((s) => s.role === 'assistant' && s.message > (seg.opener?.[0]?.message ?? 0))) ? 'answered' : 'open') : undefined;
    const firstId = ((seg.parts[0] as readonly Sentence[])[0] as Sentence).id;
    if (join) {
      const t = threads.includes(join) ? join : { ...join, sources: [...join.sources] };
      if (!threads.includes(t)) threads.push(t);
      if (seg.from && (!t.from || seg.from < t.from)) t.from = seg.from;
      if (seg.to > t.to) t.to = seg.to;
      if (state) t.state = state;
      if (!t.sources.includes(firstId)) t.sources.push(firstId);
      const merged = profiles.get(t.id) ?? new Map<string, number>();
      for (const [w, x] of profile) merged.set(w, (merged.get(w) ?? 0) + x);
      profiles.set(t.id, merged);
      t.profile = Object.fromEntries(topCounts(merged, PROFILE_WORDS));
      for (let i = seg.start; i < seg.end; i++) threadOf.set((messages[i] as ChatMessage).id, t.id);
      previousThread = t;
      continue;
    }
    // (With an assistant, a session the user opened without a request the patterns know is headed
    // by its opening sentence.)
    const asked = kind !== 'talk' && seg.opener ? requestHead(seg.opener) : '';
    // (A request that leans on the sentence the user opened with — "Do you know if they offer
    // discounts for first-time customers?" after "I'm trying the new grocery delivery service." —
    // is headed by that sentence: it says what the thread is about.)
    const leans = asked && kind === 'assist' && seg.opening && seg.opener?.[0]?.id === seg.opening[0]?.id && seg.opener?.[0] !== seg.opening[0] && LEANS.test(asked);
    // (So is a thread whose first request came in a later message than the one the user opened it
    // with — "I'm building my first gaming PC …", then "Is the Razer
    // Basilisk V3 a good mouse?": the opening says what the thread is about.)
    // (Only an opening in which the user speaks of themselves: "Harbour Link is part of the Harbour
    // platform." pasted before the request says less than the request.)
    const late = asked && kind === 'assist' && seg.opening?.[0] !== undefined && seg.opener?.[0]?.id !== seg.opening[0].id && (seg.opening[0].traits & (FIRST_PERSON | MY)) !== 0;
    const byRequest = (leans || late) && seg.opening && openingHead(seg.opening) ? '' : asked;
    const byOpening = !byRequest && kind === 'assist' && seg.opening ? openingHead(seg.opening) : '';
    let head = byRequest || byOpening;
    // (Else, with an assistant, what the assistant said the user's text was: a thread opened by a
    // pasted e-mail with no request is headed "This appears to be an email sent by … discussing an
    // idea for a video-based website.", where its phrases named the e-mail's addressees.)
    let described = head || kind !== 'assist' ? '' : describedText(flatOf(seg));
    let phrases = head || described ? [] : phrasesOf(flatOf(seg), weight, (w) => (dfByWord.get(w) ?? 1) > Math.max(1, n / 2), kind === 'talk' ? TALK_TOPICS : undefined);
    // (Else, with an assistant, the first request of the user in the thread that names what its
    // phrases name: a thread opened by a pasted report is about what the user asked of it — "Help me
    // outline the sections of a property valuation report …" — where the phrases read
    // "valuation report template, cost approach section, discount rate". A request naming none of
    // them — "Please answer in English." — heads nothing.)
    if (!head && !described && kind === 'assist' && phrases.length) {
      const asked = topicalRequest(flatOf(seg), phrases);
      if (asked) {
        described = asked;
        phrases = [];
      }
    }
    // (A request that follows up on an answer of the session — "write a product description using
    // the above", "can you try again?" — heads it only when nothing else does: the session's
    // opening, else its phrases, say what it was about.)
    if (head && head === byRequest && kind === 'assist' && seg.opener && followsUp(seg.opener)) {
      const opening = seg.opening && seg.opening[0] !== seg.opener[0] ? openingHead(seg.opening) : '';
      const own = opening ? [] : phrasesOf(flatOf(seg), weight, (w) => (dfByWord.get(w) ?? 1) > Math.max(1, n / 2));
      if (opening) head = opening;
      else if (own.length >= 2) {
        head = '';
        phrases.push(...own);
      }
    }
    const id = nextId++;
    const line: ThreadLine = {
      id,
      // (One phrase alone reads as a fragment, not a topic: the head is then its days alone.)
      text: head || described || (phrases.length >= 2 ? phrases.slice(0, HEAD_PHRASES).join(', ') : ''),
      ...(kind === 'talk' && phrases.length ? { topics: phrases } : {}), // (more than its head: session-heads.ts)
      head: head ? 'request' : 'phrases',
      sources: [head && head === byRequest ? (seg.opener?.[0] as Sentence).id : head ? (seg.opening?.[0] as Sentence).id : described ? (flatOf(seg).find((x) => x.text === described) as Sentence).id : firstId],
      at: seg.from,
      from: seg.from,
      to: seg.to,
      score: seg.count,
      round,
      profile: Object.fromEntries(topCounts(profile, PROFILE_WORDS)),
      ...(state ? { state } : {}),
    };
    profiles.set(id, profile);
    threads.push(line);
    previousThread = line;
    for (let i = seg.start; i < seg.end; i++) threadOf.set((messages[i] as ChatMessage).id, id);
  }
  return { threads, threadOf };
}

/** Merges a round's threads into the earlier ones: a thread this round came back to replaces its
 * earlier line (same id); the rest are appended in order. */
export function mergeThreads(earlier: readonly ThreadLine[], fresh: readonly ThreadLine[]): ThreadLine[] {
  const byId = new Map(fresh.map((t) => [t.id, t]));
  const out = earlier.map((t) => byId.get(t.id) ?? t);
  for (const t of fresh) if (!earlier.some((e) => e.id === t.id)) out.push(t);
  return out;
}
