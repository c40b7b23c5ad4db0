// What the threads read of each message, once per message object (the plugin's path reads
// messages as they arrive, compact.ts prepareMessage): its prose sentences' content words with
// their counts (`messageWords`), its sentences in order (`sentencesByMessage`), and whether it opens
// with a date stamp (`stampedMessage`). Speed only: threads.ts gives the same threads without the
// caches. Pure (kept with the message object: message-memo.ts).
import { memoOf } from './message-memo';
import { type Sentence, prepareSentences } from './extract-sentences';
import { leadingStamp } from './dates';
import type { ChatMessage } from './messages';
import { isContentWord, vocabSize } from './vocab';

/** The prose a thread is made of: what the two sides said, not code, tool output or templates. */
export const prose = (s: Sentence): boolean => !s.code && !s.template && (s.role === 'user' || s.role === 'assistant');

/** A message's prose sentences' content words: each distinct word once (first-seen order) with the
 * number of those sentences that say it — what a segment's word counts add for the message. */
export interface MessageWords {
  /** The sentences it was read from: the message's cached list (extract-sentences), the same
   * array in every compaction while the message and the word table are unchanged. */
  own: readonly Sentence[];
  /** Their prose sentences. */
  from: Sentence[];
  ids: Int32Array;
  counts: Int32Array;
}

/** {@link MessageWords} of `own` (a message's sentences as this compaction reads them), worked out
 * once per message object: kept while its prose sentences are the same objects (a compaction may
 * leave some out, agent-prose.ts; a re-read makes new ones). */
export function messageWords(m: ChatMessage, own: readonly Sentence[]): MessageWords {
  const memo = memoOf(m);
  const hit = memo.words as MessageWords | undefined;
  if (hit && (hit.own === own || sameProse(hit.from, own))) return hit;
  const from: Sentence[] = [];
  const order: number[] = [];
  if (tally.length < vocabSize()) tally = new Int32Array(vocabSize() * 2);
  for (let k = 0; k < own.length; k++) {
    const s = own[k] as Sentence;
    if (!prose(s)) continue;
    from.push(s);
    for (let j = 0; j < s.ids.length; j++) {
      const id = s.ids[j] as number;
      if (!isContentWord(id)) continue;
      const c = tally[id] as number;
      if (c === 0) order.push(id);
      tally[id] = c + 1;
    }
  }
  const ids = new Int32Array(order.length);
  const counts = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const id = order[k] as number;
    ids[k] = id;
    counts[k] = tally[id] as number;
    tally[id] = 0;
  }
  const out: MessageWords = { own, from, ids, counts };
  memo.words = out;
  return out;
}
/** Scratch counts by word id for {@link messageWords}, all zero between calls. */
let tally = new Int32Array(0);

/** Whether `own`'s prose sentences are exactly `from`, in order. */
function sameProse(from: readonly Sentence[], own: readonly Sentence[]): boolean {
  let k = 0;
  for (let j = 0; j < own.length; j++) {
    const s = own[j] as Sentence;
    if (!prose(s)) continue;
    if (from[k] !== s) return false;
    k++;
  }
  return k === from.length;
}

/**
 * The sentences of each message, in order. When `sentences` holds every sentence of every message
 * (nothing was left out of this compaction), those are the messages' own cached lists, found
 * without reading a sentence (a pass that read each one's message index was the dearest part of
 * cutting segments); else they are gathered by message index.
 */
export function sentencesByMessage(messages: readonly ChatMessage[], sentences: readonly Sentence[]): (readonly Sentence[])[] {
  const lists: (readonly Sentence[])[] = new Array<readonly Sentence[]>(messages.length);
  let total = 0;
  let whole = true;
  for (let i = 0; i < messages.length && whole; i++) {
    const list = prepareSentences(messages[i] as ChatMessage);
    lists[i] = list;
    total += list.length;
    // (A message object passed twice has its sentences placed at its later index.)
    if (list.length && (list[0] as Sentence).message !== i) whole = false;
  }
  if (whole && total === sentences.length) return lists;
  const byMessage: Sentence[][] = messages.map(() => []);
  for (let k = 0; k < sentences.length; k++) byMessage[(sentences[k] as Sentence).message]?.push(sentences[k] as Sentence);
  return byMessage;
}

/** Whether a message opens with a date stamp, read once per message object. */
export function stampedMessage(m: ChatMessage): boolean {
  const memo = memoOf(m);
  if (memo.stamped === undefined) memo.stamped = leadingStamp(m.content).at > 0;
  return memo.stamped as boolean;
}
