// An agent's lists and fragments as key facts. An agent at work writes lists under a lead-in ("The
// operations are generated in this order:", "We have a few options:", "The fix correctly
// handles:"): an item means something only under it. Carried alone, an item that is no clause
// ("`CreateModel` for LookImage (without the `look` field initially).", "Empty lists (converted to
// empty tuple `()`).") or one option of a plan said as a bare command ("Skip updating permissions
// that would create duplicates.") reads as a fragment, and readers marked such lines down. So does
// a short sentence of prose that is no clause ("Line 114 and line 280."), or a remark that a line
// it looked at holds nothing. Pure.
import type { Sentence } from './extract-sentences';
import { assistantProse, memo, question } from './sentence-memo';
import type { SourcedLine } from './record';

/** A word that makes a clause: a form of be / have / do, a modal, a negation, or a contraction
 * ("it's"; not a possessive: "the model's ordering"). */
const FINITE =
  /\b(?:is|are|was|were|am|be|been|has|have|had|does|do|did|can|could|will|would|should|shall|must|may|might|need|needs|cannot|isn['’]t|aren['’]t|wasn['’]t|weren['’]t|doesn['’]t|don['’]t|didn['’]t|can['’]t|won['’]t|hasn['’]t|haven['’]t)\b|\b(?:it|that|there|here|what|who|he|she|this|where|everything|nothing)['’]s\b|\w['’](?:re|ve|ll|d)\b/i;
/** A subject and a verb ("The user changes …", "Nothing gets added", "It returned …", "We
 * skipped …"): a clause with no auxiliary. */
// (After a noun only a verb in -s: "The field specified in …" is a participle, no clause.)
const SUBJECT_VERB =
  /^(?:(?:the|a|an|this|that|each|every|our|my|its|their|other|both|all)\s+(?:[\w`'.-]+\s+){0,3}?\w+s\b|(?:it|we|they|he|she|i|nothing|everything|something|everyone|nobody|one)\s+\w+(?:s|ed)\b)/i;
/** What a relative clause opens with: its verb belongs to it, not to the item's head ("Binary data
 * that should be passed through as-is."). */
const RELATIVE = /\s(?:that|which|who|whose|where)\s/gi;
/** Words after which "that" opens what is seen or said, not a relative clause ("I see that `x`
 * doesn't pass …" is a clause). */
const SAYS = new Set(['see', 'saw', 'know', 'knew', 'think', 'thought', 'found', 'find', 'show', 'shows', 'showed', 'mean', 'means', 'notice', 'noticed', 'note', 'notes', 'say', 'says', 'said', 'is', 'was', 'are', 'were', 'so', 'ensure', 'check', 'verify', 'confirm', 'confirms', 'sure', 'seems']);

/** A text without the relative clause it ends on (from its first "that" / "which" … not after a
 * verb of saying or seeing). */
function withoutRelative(text: string): string {
  for (const m of text.matchAll(RELATIVE)) {
    const before = /(\S+)$/.exec(text.slice(0, m.index))?.[1]?.toLowerCase() ?? '';
    if (!SAYS.has(before)) return text.slice(0, m.index);
  }
  return text;
}

/** A bare command opening an item: an option of a plan or a step to take, not a finding. */
const COMMAND =
  /^(?:not\s+)?(?:add|skip|update|raise|remove|delete|check|use|call|return|handle|change|modify|create|factor|move|replace|set|keep|make|convert|pass|fix|ensure|wrap|catch|override|implement|refactor|rename|filter|avoid|store|compute|switch|drop|include|exclude|treat|apply|validate)\b/i;
/** Most words of a prose sentence (not a list item) that is left out for being no clause. */
const SHORT_FRAGMENT_WORDS = 8;

/** Whether a text (code spans and bracketed asides left out) has a clause of its own, outside a
 * relative clause. */
export function hasClause(text: string): boolean {
  // (The patterns only where their first character is: most sentences hold no bracket or tick.)
  const bare = (text.includes('(') ? text.replace(/\([^()]*\)/g, ' ') : text).replace(/\s+/g, ' ').trim();
  const head = withoutRelative(bare);
  const plain = head.includes('`') ? head.replace(/`[^`]*`/g, 'X') : head;
  return FINITE.test(plain) || SUBJECT_VERB.test(head);
}

/** A remark that a line it looked at holds nothing ("I see, line 333 is just a comment line."):
 * where it looked, not what it found. */
const NOTHING_THERE = /^(?:(?:i see|ok(?:ay)?|ah|so)[,!]?\s+)?line \d+ (?:is|was) (?:just |only )?(?:a |an )?(?:comment|blank|empty)\b/i;

/** Whether an assistant sentence of an agent run reads as a fragment on a line of its own: a list
 * item that is no clause or a bare command, or a short sentence of prose that is no clause. */
export function listFragment(s: Sentence): boolean {
  if (s.role !== 'assistant' || s.code || s.template) return false;
  if (NOTHING_THERE.test(s.text)) return true;
  if (s.item) return COMMAND.test(s.text) || !hasClause(s.text);
  return s.wc <= SHORT_FRAGMENT_WORDS && !hasClause(s.text);
}

/** A lead-in that sets up a case the items work through ("For transitive ordering:", "When we
 * have `-pk` and …:", "If the item starts with `'-'`:"): each item holds only in that case. */
const CASE_LEAD = /^(?:(?:so|but|and|now|ok(?:ay)?),?\s+)?(?:for|if|when|whenever|in the case|with|suppose|say|consider|e\.g\.|for example|example)\b.*:\s*$/i;

/** Whether an agent's list item works through a case its lead-in sets up (see CASE_LEAD): carried
 * alone, "Result should be order by author's pk in DESC order." reads as a claim about the task
 * when it was one step of an example. `at`: its index in `sentences`. */
export function isCaseItem(sentences: readonly Sentence[], at: number): boolean {
  const s = sentences[at] as Sentence;
  if (!s.item || s.role !== 'assistant' || s.code) return false;
  for (let j = at - 1; j >= 0; j--) {
    const t = sentences[j] as Sentence;
    if (t.message !== s.message) return false;
    if (!t.item) return !t.code && CASE_LEAD.test(t.text);
  }
  return false;
}

/** Most key facts one message of an agent's reasoning gives. */
export const AGENT_FACTS_PER_MESSAGE = 3;

/**
 * The key facts with at most `n` from each of the agent's messages, its best-ranked: a message
 * reasoning through a case gives a run of sentences that read as one glued paragraph on a fact
 * line ("… semantically it's just the primary key. If `descending` is `True` … But that's exactly
 * what happens …"), a step of the reasoning without the others. `assistant`: whether an id is one
 * of the agent's messages. Order kept.
 */
export function atMostPerMessage(facts: readonly SourcedLine[], assistant: (id: string) => boolean, n = AGENT_FACTS_PER_MESSAGE): SourcedLine[] {
  const byMessage = new Map<string, SourcedLine[]>();
  for (const f of facts) {
    const id = f.sources[0] ?? '';
    if (!assistant(id)) continue;
    const list = byMessage.get(id);
    if (list) list.push(f);
    else byMessage.set(id, [f]);
  }
  const drop = new Set<SourcedLine>();
  for (const list of byMessage.values()) if (list.length > n) for (const f of [...list].sort((a, b) => b.score - a.score).slice(n)) drop.add(f);
  return drop.size ? facts.filter((f) => !drop.has(f)) : [...facts];
}

/** {@link listFragment}, asked once per sentence. */
export const isListFragment = (s: Sentence): boolean => memo(s, LIST_FRAGMENT);
// (Asked once per sentence, and ahead as its message arrives: sentence-memo.ts.)
const LIST_FRAGMENT = question(listFragment, assistantProse);
