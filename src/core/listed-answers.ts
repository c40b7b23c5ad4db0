// The assistant's answers that hold a list, among the removed messages, each as its items' heads
// (answer-shape.ts) with the request it answers — the user's question or request in the message
// just before it — so a list under a thread another request opened can say what it answers
// ("- Asked: …" before "- Assistant listed: …", thread-format.ts). Pure.
import { listHeadsOf } from './answer-shape';
import { isRequestText } from './extract-goal';
import type { Sentence } from './extract-sentences';
import type { ListedAnswer } from './fact-candidates';
import type { ChatMessage } from './messages';
import { opensOnPointer } from './salience';
import { QUESTION } from './traits';
import { contentWords } from './word-scan';

/** The assistant's answers that hold a list, as their items' heads (answer-shape.ts), each with
 * the request it answers: the user's request or question in the message just before it. */
export function listedAnswers(removed: readonly ChatMessage[], sentences: readonly Sentence[]): ListedAnswer[] {
  const out: ListedAnswer[] = [];
  const atOf = new Map<number, number>();
  const askedOf = new Map<number, string>();
  for (const s of sentences) {
    if (!atOf.has(s.message)) atOf.set(s.message, s.at);
    // (A question that leans on what came before, "Do you think they're worth it?", says too little.)
    if (s.role === 'user' && !askedOf.has(s.message) && s.wc <= ASKED_WORDS && (s.traits & QUESTION || isRequestText(s.text)) && contentWords(s.text).length >= 3 && !opensOnPointer(s.text)) askedOf.set(s.message, s.text);
  }
  removed.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const heads = listHeadsOf(m);
    if (!heads.length) return;
    const asked = removed[i - 1]?.role === 'user' ? askedOf.get(i - 1) : undefined;
    out.push({ id: m.id, at: atOf.get(i) ?? (m.createdAt > 0 ? m.createdAt : 0), message: i, heads, ...(asked ? { asked } : {}) });
  });
  return out;
}

/** Words a request shown beside its list may have: a longer one is a paragraph, not a label. */
const ASKED_WORDS = 24;
