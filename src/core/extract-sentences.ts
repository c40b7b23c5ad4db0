// The sentence pass: one walk over the removed messages that yields the candidate sentences every
// extractor ranks or classifies. Done once, so compaction stays a few linear passes over the text.
import type { ChatMessage } from './messages';
import { leadingStamp } from './dates';
import { splitSentences, squash, wordIds } from './text';
import { traitsOf } from './traits';
import { resetVocabIfFull, vocabGeneration } from './vocab';

export interface Sentence {
  text: string;
  /** Id of the message it came from. */
  id: string;
  role: ChatMessage['role'];
  /** Index of the message among the removed ones. */
  message: number;
  /** Index of the sentence within its message. */
  index: number;
  /** Sentences in the message. */
  of: number;
  /** Message time (ms), 0 when unknown. */
  at: number;
  /** Distinct ranking keys (see `contentWords`) as vocabulary ids (vocab.ts), first-seen order;
   * valid for the compaction that built them. */
  ids: readonly number[];
  /** Ranking keys with repeats (`contentWords(text).length`). */
  keyCount: number;
  /** {@link wordCount} of `text` (0 for code, which no extractor counts), counted once here. */
  wc: number;
  /** Its form (traits.ts bits: question, first person, markup …); 0 for code. */
  traits: number;
  /** The vocab flags of its words, OR-ed (with CJK_TEXT when it holds CJK): which pronouns and
   * cue words it may hold, so a pattern that needs one is not tried on text without. */
  wordFlags: number;
  /** Text inside a fenced code block, or tool output that reads as code. */
  code: boolean;
  /** What extractors derived from this sentence's text, shared by every compaction of the same
   * message (the sentence pass is cached per message): keyed by extractor. */
  memo?: Record<string, unknown>;
}

const FENCE = /^\s*(```|~~~)/;

/** 1 for the characters typical of code rather than prose (brackets, operators, slashes …). */
const CODE_SYMBOLS = new Uint8Array(128);
for (const ch of '{}()[];=<>$#|\\_`*/') CODE_SYMBOLS[ch.charCodeAt(0)] = 1;

/** Share of characters typical of code rather than prose. */
function codeLike(line: string): boolean {
  if (line.length < 4) return false;
  let sym = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 128) sym += CODE_SYMBOLS[c] as number;
  }
  if (sym / line.length > 0.08) return true;
  // Indented or starting like a statement, listing, or a line-numbered dump.
  return /^\s{2,}\S|^\s*(?:\d+\s*[|:]?\s|def |class |import |from \S+ import|return\b|if .*:$|for .*:$|@@|[+-]{1,3}\s|at \S+\()/.test(line);
}

/** What one message yields, independent of where it sits in a conversation: cached per message
 * object (messages are immutable), so a message is split and keyed once however often it is
 * compacted or previewed. */
interface MessagePieces {
  content: string;
  role: ChatMessage['role'];
  /** The vocabulary generation its word ids belong to. */
  generation: number;
  /** Time of a date stamp the text starts with (0 when none). */
  stampAt: number;
  pieces: Piece[];
  /** The sentences last built from it, and where they sat (reused when that is unchanged). */
  built?: { message: number; at: number; sentences: Sentence[] };
}

/** One sentence of a message. It is also the memo its sentences share (extractors add their own
 * keys to it), so the cold pass allocates no separate memo object per sentence. */
type Piece = { text: string; code: boolean; ids: number[]; keyCount: number; wc: number; traits: number; wordFlags: number } & Record<string, unknown>;

const NO_IDS: number[] = [];
const codePiece = (text: string): Piece => ({ text, code: true, ids: NO_IDS, keyCount: 0, wc: 0, traits: 0, wordFlags: 0 });

function prosePiece(text: string): Piece {
  const ids: number[] = [];
  // One walk over the text gives the word ids, the word count and what the traits need.
  const scan = wordIds(text, ids);
  return { text, code: false, ids, keyCount: scan.count, wc: scan.words, traits: traitsOf(text, scan.words, scan.flags, scan.punct), wordFlags: scan.flags };
}

const cache = new WeakMap<ChatMessage, MessagePieces>();

function piecesOf(m: ChatMessage): MessagePieces {
  const hit = cache.get(m);
  if (hit && hit.content === m.content && hit.role === m.role && hit.generation === vocabGeneration()) return hit;
  let content = m.content;
  const stamp = m.role === 'tool' ? { at: 0, length: 0 } : leadingStamp(content);
  if (stamp.at) content = content.slice(stamp.length);
  const pieces: MessagePieces['pieces'] = [];
  let inFence = false;
  const prose = m.role !== 'tool' && m.role !== 'system';
  for (const line of content.split('\n')) {
    if (line.length < 2 && !line.trim()) continue;
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (!line.trim()) continue;
    const code = inFence || (!prose && codeLike(line));
    if (code) {
      pieces.push(codePiece(squash(line)));
      continue;
    }
    // List markers are markup, not content: the block adds its own bullets.
    const bare = LIST_MARK.test(line) ? line.replace(LIST_MARK, '') : line;
    for (const text of splitSentences(bare)) {
      const c = !prose && codeLike(text);
      pieces.push(c ? codePiece(text) : prosePiece(text));
    }
  }
  const out = { content: m.content, role: m.role, generation: vocabGeneration(), stampAt: stamp.at, pieces };
  cache.set(m, out);
  return out;
}

const LIST_MARK = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/;

/**
 * Splits messages into sentences. Tool results keep only their prose-like lines (a note's text,
 * an error) — listings and code dumps are not facts; fenced code in chat messages is marked so the
 * ranking can skip it.
 */
export function sentencesOf(messages: readonly ChatMessage[]): Sentence[] {
  // The one safe point to clear a full word table: no id of this compaction has been taken yet.
  resetVocabIfFull();
  const out: Sentence[] = [];
  // Messages without a time take the last date stamp written in the conversation (an exported
  // chat's session header), so relative dates in them can still be resolved.
  let stampAt = 0;
  messages.forEach((m, message) => {
    const p = piecesOf(m);
    if (p.stampAt) stampAt = p.stampAt;
    const own = Number.isFinite(m.createdAt) && m.createdAt > 0 ? m.createdAt : 0;
    const at = own || stampAt;
    // The same message at the same place as last time: its sentences are the same objects.
    if (p.built && p.built.message === message && p.built.at === at) {
      for (const s of p.built.sentences) out.push(s);
      return;
    }
    const from = out.length;
    const of = p.pieces.length;
    for (let index = 0; index < of; index++) {
      const x = p.pieces[index] as Piece;
      out.push({ text: x.text, id: m.id, role: m.role, message, index, of, at, ids: x.ids, keyCount: x.keyCount, wc: x.wc, traits: x.traits, wordFlags: x.wordFlags, code: x.code, memo: x });
    }
    p.built = { message, at, sentences: out.slice(from) };
  });
  return out;
}
