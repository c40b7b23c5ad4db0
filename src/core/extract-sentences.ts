// The sentence pass: one walk over the removed messages that yields the candidate sentences every
// extractor ranks or classifies. Done once, so compaction stays a few linear passes over the text.
import type { ChatMessage } from './messages';
import { leadingStamp } from './dates';
import { contentWords, splitSentences, squash } from './text';

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
  /** Ranking keys (see {@link contentWords}). */
  words: string[];
  /** Text inside a fenced code block, or tool output that reads as code. */
  code: boolean;
}

const FENCE = /^\s*(```|~~~)/;

/** Share of characters typical of code rather than prose. */
function codeLike(line: string): boolean {
  if (line.length < 4) return false;
  let sym = 0;
  for (let i = 0; i < line.length; i++) if ('{}()[];=<>$#|\\_`*/'.includes(line[i] as string)) sym++;
  if (sym / line.length > 0.08) return true;
  // Indented or starting like a statement, listing, or a line-numbered dump.
  return /^\s{2,}\S|^\s*(?:\d+\s*[|:]?\s|def |class |import |from \S+ import|return\b|if .*:$|for .*:$|@@|[+-]{1,3}\s|at \S+\()/.test(line);
}

/**
 * Splits messages into sentences. Tool results keep only their prose-like lines (a note's text,
 * an error) — listings and code dumps are not facts; fenced code in chat messages is marked so the
 * ranking can skip it.
 */
export function sentencesOf(messages: readonly ChatMessage[]): Sentence[] {
  const out: Sentence[] = [];
  // Messages without a time take the last date stamp written in the conversation (an exported
  // chat's session header), so relative dates in them can still be resolved.
  let stampAt = 0;
  messages.forEach((m, message) => {
    let content = m.content;
    const stamp = m.role === 'tool' ? { at: 0, length: 0 } : leadingStamp(content);
    if (stamp.at) {
      stampAt = stamp.at;
      content = content.slice(stamp.length);
    }
    const own = Number.isFinite(m.createdAt) && m.createdAt > 0 ? m.createdAt : 0;
    const at = own || stampAt;
    const pieces: { text: string; code: boolean }[] = [];
    let inFence = false;
    for (const line of content.split('\n')) {
      if (FENCE.test(line)) {
        inFence = !inFence;
        continue;
      }
      if (!line.trim()) continue;
      const code = inFence || ((m.role === 'tool' || m.role === 'system') && codeLike(line));
      if (code) {
        pieces.push({ text: squash(line), code: true });
        continue;
      }
      // List markers are markup, not content: the block adds its own bullets.
      const bare = line.replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, '');
      for (const s of splitSentences(bare)) pieces.push({ text: s, code: codeLike(s) && m.role === 'tool' });
    }
    const of = pieces.length;
    pieces.forEach((p, index) => {
      out.push({ text: p.text, id: m.id, role: m.role, message, index, of, at, words: p.code ? [] : contentWords(p.text), code: p.code });
    });
  });
  return out;
}
