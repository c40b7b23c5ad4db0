// The agent's latest conclusion about the cause and the fix it settled on, from its prose (agent
// runs and tool loops; extract-state.ts writes them into the State). Only whole assistant
// sentences of prose, never a hedge, a question or a sentence leaning on the one before it. Pure.
import type { Sentence } from './extract-sentences';
import type { SourcedLine } from './record';
import { assistantProse, cued, mayHold, memo, question } from './sentence-memo';
import { squash } from './text';
import { contentWords } from './word-scan';

/** A conclusion about the cause ("The issue is that …", "The problem occurs because …"). */
const CAUSE =
  /^(?:(?:so|now|ok(?:ay)?|i see[,!]?|i found it[,!]?|perfect[,!]?|great[,!]?)[,!:]?\s+)?(?:the (?:root cause|(?:real |actual |underlying )?(?:issue|problem|bug|cause|reason)) (?:is|was|lies|comes|occurs|happens|here is|seems to be)\b|(?:i (?:found|see|understand|now understand) (?:the (?:issue|problem|bug|cause)|why|what)\b)|.{0,80}\b(?:fails?|happens|occurs|breaks) because\b)/i;
/** A hedge: not a conclusion. */
const HEDGE = /\?|\b(?:might|maybe|perhaps|possibly|probably|may be|could be|not sure|I think|I suspect|I guess|seems? like)\b/i;
/** Opens on a word whose referent lies in the sentence before it. */
const POINTER_OPENER = /^(?:it|its|it['’]s|this|that|that['’]s|these|those|they|they['’]re|there|such|both|which|he|she)\b/i;

/** A conclusion announced, its content in the sentences after it ("Now I understand the issue.",
 * "The problem is clear:"). Not "The test confirms the issue:": what follows is the symptom. */
const ANNOUNCED_CAUSE =
  /^(?:(?:so|now|ok(?:ay)?|perfect|great|good|ah|aha)[,!]?\s+)?(?:(?:now\s+)?I (?:now |can |finally )?(?:understand|see|found|get|spotted|identified)(?: now)? (?:the |what the )?(?:root cause|(?:real |actual )?(?:issue|problem|bug|cause))(?: (?:now|clearly|better|here|is))?|the (?:root cause|issue|problem|bug) is (?:now )?(?:clear|this|as follows|here)|here['’]s the (?:issue|problem|bug))\W*$/i;
/** A finding about what the code fails to do ("`make_bytes` doesn't handle `memoryview`"): a
 * cause when the agent states none in so many words. */
const FINDING = /\b(?:does(?:n['’]t| not)|is(?:n['’]t| not)|never|fails to) (?:handle|handled|pass|passed|call|called|check|checked|support|supported|include|included|account for|consider|considered|use|used|set|add|added|escape|escaped|strip|stripped|return|returned)\b/i;
/** A statement of what the issue is about, not of its cause ("The issue is about X", "… is real"). */
const NOT_A_CAUSE = /\b(?:issue|problem|bug) (?:is|was) (?:about|related to|real|fixed|now fixed|resolved|confirmed|reproduced|still there|gone)\b/i;
/** A connective that opens a conclusion without adding to it ("So the issue is …"). */
const CONNECTIVE = /^(?:(?:so|now|ok(?:ay)?|perfect|great|good|ah|aha)[,!:]?\s+)?(?:i (?:can |now )?(?:see|notice|found|understand) that\s+|(?:i see|i found it)[,!:]?\s+)?/i;
/** Most words of a cause taken from the sentences after its announcement. */
const CAUSE_WORDS = 60;

/** A cause line's text: without the connective it opens with, its first letter capitalised. */
function causeText(text: string): string {
  const bare = squash(text).replace(CONNECTIVE, '');
  return bare ? `${bare.charAt(0).toUpperCase()}${bare.slice(1)}` : bare;
}

/** A sentence that can state (part of) a cause: a whole assistant sentence of prose, not a
 * hedge, not one leaning on the sentence before it, not a lead-in. */
function causeSentence(s: Sentence): boolean {
  return s.role === 'assistant' && !s.code && !s.template && s.wc >= 4 && s.wc <= 60 && !HEDGE.test(s.text) && !POINTER_OPENER.test(s.text) && !/:\s*$/.test(s.text) && !/^(?:let me|let['’]s|I['’]ll|I will|now let me)\b/i.test(s.text);
}

/** The sentences after an announcement in its message that say what it announced (up to
 * CAUSE_WORDS words; a lead-in or a hedge ends them). */
function announcedCause(sentences: readonly Sentence[], at: number, cause = false): Sentence[] {
  const head = sentences[at] as Sentence;
  const out: Sentence[] = [];
  let words = 0;
  for (let i = at + 1; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (s.message !== head.message || !causeSentence(s) || NOT_A_CAUSE.test(s.text)) break;
    // (A cause ends where the fix begins: "The fix should be to …" is the plan's.)
    if (cause && PLAN_SHAPE.test(s.text.replace(PLAN_OPENER, ''))) break;
    if (out.length && words + s.wc > CAUSE_WORDS) break;
    out.push(s);
    words += s.wc;
  }
  return out;
}

/** Words on what the fix is, settled or not, near the start of a sentence ("The fix should be …",
 * "Actually, I think the solution is in the autodetector.", "Let me check what the actual fix
 * should be."), or a new diagnosis ("the real issue is …", "the wrong place"): the latest of these
 * is the agent's latest word on the fix. Not "Let me run the tests to make sure the fix works." */
const FIX_TALK =
  /^(?:[^\s.?!]+\s+){0,4}(?:the|a|my|our|this) (?:(?:correct|right|real|proper|simplest|simpler|simple|best|better|actual|cleanest|minimal|only) )?(?:fix|solution|approach|logic)\s+(?:\w+\s+)?(?:is|should|would|needs?|will|must|could|might|seems?)\b/i;
/** A new diagnosis: the fix planned for the old one may not hold. */
const NEW_DIAGNOSIS = /\b(?:real|actual|true) (?:issue|problem|cause|bug)\b|\bwrong place\b/i;
/** What a plan opens with before its subject ("So", "I think"). */
const PLAN_OPENER = /^(?:(?:so|now|ok(?:ay)?|then)[,]?\s+)?(?:I (?:think|believe) (?:that )?)?/i;
/** A plan, once its opener is set aside: "the fix should be …", "the simplest solution seems to be
 * to modify …", "the logic should be: …". */
const PLAN_SHAPE = /^the (?:(?:correct|right|proper|simplest|simpler|simple|best|better|cleanest|minimal|only) )?(?:fix|solution|approach|logic) (?:should be|seems to be|would be|will be|is to|needs to be)\b|^the (?:fix|solution) is\b/i;
/** A plan said as the agent's belief ("I think the fix should be to override `pre_save` …", "The
 * simplest solution seems to be …"): still its plan, said with the hedge. */
const MILD_HEDGE = /\bI (?:think|believe)\b|\bseems? to be\b/i;
/** A guess that is no plan ("might", "maybe", a question). */
const STRONG_HEDGE = /\?|\b(?:might|maybe|perhaps|possibly|probably|may be|could be|not sure|I suspect|I guess|I wonder)\b/i;
/** Opens a retraction (agent-prose.ts has the full reading; this is the start of one). */
const TAKES_BACK = /^(?:(?:but|and|oh|hmm|so|ok(?:ay)?),?\s+)?(?:actually\b|wait\b|no[,.!]|hmm+\b|oh[,!]|that['’]s not\b)/i;

/** The agent's latest statement of the fix it means to make, when no source file was edited after
 * it (then it is done, and Changed says how): a whole sentence, or the sentences after one that
 * announces it ("So the fix is:"). Only while it is the agent's latest word on the fix: a plan it
 * took back ("Wait, actually …"), or followed by a hedged one ("I think the solution is in the
 * autodetector."), a search for the right one or a new diagnosis ("the real issue"), is no longer
 * its plan — none is shown rather than the abandoned one. `sentences`: without what the agent
 * retracted or hedged (agent-prose.ts); `said`: all its sentences, those too. `lastEdit`: index
 * among the removed messages of the last message that changed a source file (-1: none). */
export function latestPlan(sentences: readonly Sentence[], lastEdit: number, said: readonly Sentence[] = sentences): SourcedLine | null {
  // (The set of what was kept only once a plan is met: most runs' sentences hold none, and a set
  // of every sentence cost more than the walk.)
  let kept: Set<Sentence> | null | undefined = said === sentences ? null : undefined;
  const keptOf = (): Set<Sentence> | null => (kept === undefined ? (kept = new Set(sentences)) : kept);
  for (let k = said.length - 1; k >= 0; k--) {
    const s = said[k] as Sentence;
    if (s.message <= lastEdit) return null;
    if (s.role !== 'assistant' || s.code || s.template || !memo(s, TALKS_FIX)) continue;
    // The latest word on the fix. Taken back, a guess, a new diagnosis or talk of a fix still to
    // find ("Let me check what the actual fix should be."), it leaves no plan standing.
    const bare = s.text.replace(PLAN_OPENER, '');
    const next = said.slice(k + 1).find((x) => x.role === 'assistant' && !x.code && !/:\s*$/.test(x.text));
    if (TAKES_BACK.test(s.text) || STRONG_HEDGE.test(s.text) || NEW_DIAGNOSIS.test(s.text) || !PLAN_SHAPE.test(bare)) return null;
    if (next && next.message === s.message && TAKES_BACK.test(next.text)) return null;
    // (Left out of the sentences for its hedge alone, a plan is said with the hedge, in its words.)
    const known = keptOf();
    const hedged = known !== null && !known.has(s);
    if (hedged && !MILD_HEDGE.test(s.text)) return null;
    const i = known ? sentences.indexOf(s) : k;
    if (/:\s*$/.test(s.text) && s.wc <= 12) {
      const announced = i >= 0 ? announcedCause(sentences, i) : [];
      if (announced.length) return { text: causeText(announced.map((x) => x.text).join(' ')), sources: [s.id], at: s.at, score: 1, round: 0 };
      return null;
    }
    if (s.wc >= 8 && s.wc <= 60 && !POINTER_OPENER.test(s.text) && !/:\s*$/.test(s.text) && !/\b(?:in|on) (?:the )?(?:test|import)/i.test(s.text)) return { text: hedged ? squash(s.text) : causeText(s.text), sources: [s.id], at: s.at, score: 1, round: 0 };
    // (Too short to say it — "The fix is simple." —: what it said before still stands.)
  }
  return null;
}

// (Asked once per sentence, sentence-memo.ts: a sentence none of the cause patterns match is
// passed over by latestCause whatever sits around it; the same for the plan's.)
// (The rare patterns first: most sentences state no cause, and are then ruled out by two patterns
// rather than by the seven a would-be cause must pass.)
const finding = cued(FINDING, ['does', 'is', 'never', 'fails']);
/** (Every CAUSE match holds one of these as a word: the issue named, the finding verb, "because".) */
const mayStateCause = mayHold(['cause', 'issue', 'problem', 'bug', 'reason', 'found', 'see', 'understand', 'because']);
const MAY_STATE_CAUSE = question((s) => ANNOUNCED_CAUSE.test(s.text) || (s.wc >= 4 && ((mayStateCause(s) && CAUSE.test(s.text)) || finding(s)) && causeSentence(s) && !NOT_A_CAUSE.test(s.text)), assistantProse);
const TALKS_FIX = question((s) => FIX_TALK.test(s.text) || NEW_DIAGNOSIS.test(s.text), assistantProse);

/** When the issue shows rather than why ("The problem occurs when the value changes"). */
const TRIGGER = /^the (?:issue|problem|bug|error) (?:only |specifically |still )?(?:occurs|happens|arises|appears|shows up|is (?:only |specifically )?when)\b/i;
/** What is seen against what is wanted ("… should become invalid but currently don't", "showing
 * `ASC` instead of `DESC`", "the result format is inconsistent", "X returns {} while Y returns …"). */
const SEEN_NOT_WANTED = /\bshould\b[^.]*\bbut (?:currently |actually |instead |in fact |it |they )?(?:is|are|was|were|isn['’]t|aren['’]t|does(?:n['’]t| not)|do(?:n['’]t| not)|returns?|gets?|shows?|loads?|stays?|remains?|it['’]s|they['’]re)\b|\bbut (?:currently|actually|instead)\b|\binstead of\b|\binconsistent\b|\bdoes(?:n['’]t| not) work\b|\bis(?:n['’]t| not) working\b|\bwhile\b/i;
/** Words any statement of an issue has: no sign of restating this one. */
const ISSUE_WORDS = new Set(['issue', 'problem', 'bug', 'error', 'cause', 'occurs', 'happens', 'specifically', 'currently', 'when', 'still']);
/** Share of a statement's words the task must hold for it to restate the task. */
const RESTATED = 0.5;

/** The code a text names as code: a name in backticks that is code by its look (`EnumSerializer`,
 * `distinct()`, the `EnumClass` of `EnumClass(value)`), or outside them a name no English word
 * spells (with an underscore, an inner capital or a call's brackets). A backticked value
 * (`{'name'}`, `ASC`) names none. */
function codeNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const span = (m[1] as string).trim();
    if (/^[A-Za-z_$][\w$]*$/.test(span) && /[a-z]/.test(span)) out.push(span);
    else for (const w of span.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?=\()|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+/g)) out.push(w[0]);
  }
  for (const m of text.replace(/`[^`\n]*`/g, ' ').matchAll(/[A-Za-z_$][\w$.]*(?:\(\))?/g)) if (/_|[a-z][A-Z]|\(\)$/.test(m[0])) out.push(m[0].replace(/\(\)$/, ''));
  return out;
}

/** The task's words, or what makes them (compact.ts joins every user sentence, which only a
 * sentence that may restate the symptom needs: most compactions never read it). */
export type TaskText = string | (() => string);

/** The task lowercased and its words' stems, read once per task text: a run's candidate causes
 * (and, in shell work, every assistant sentence) are each checked against the same task. */
let lastTask: { task: string; lower: string; stems: Set<string> } | null = null;
function taskRead(task: string): { lower: string; stems: Set<string> } | null {
  if (!task) return null;
  if (lastTask?.task !== task) {
    const lower = task.toLowerCase();
    lastTask = { task, lower, stems: new Set(contentWords(lower).map((w) => w.slice(0, 5))) };
  }
  return lastTask;
}

/**
 * Whether a would-be cause only says again what the task reported — the symptom, not why: it
 * tells when the issue shows or what is seen against what is wanted, names no code the task does
 * not, and most of its words are the task's (matched on their first five letters: "changes",
 * "changeable"). `task`: the task's words, lower case.
 */
export function restatesSymptom(text: string, task: TaskText): boolean {
  if (!(TRIGGER.test(text) || SEEN_NOT_WANTED.test(text))) return false;
  const read = taskRead(typeof task === 'string' ? task : task());
  if (!read) return false;
  const { lower, stems } = read;
  if (codeNames(text).some((c) => !lower.includes(c.toLowerCase()))) return false;
  const words = contentWords(text).filter((w) => !ISSUE_WORDS.has(w) && w.length > 2);
  return words.length > 0 && words.filter((w) => stems.has(w.slice(0, 5))).length >= RESTATED * words.length;
}

/** What should happen, said as the issue ("The issue is that `order.product_id` should be updated
 * when `product.sku` changes."): the behaviour wanted, not why it is missing. */
const SHOULD_WHEN = /\bshould (?:be|have been|get|become|stay|remain|change|update)\b[^.]{0,80}\bwhen\b/i;
/** What the output shows against what was wanted ("it's showing `ASC` instead of `DESC`"). */
const SHOWN_INSTEAD = /\b(?:show(?:s|ing|n)?|display(?:s|ed|ing)?|output(?:s|ted|ting)?|print(?:s|ed|ing)?|generat(?:es|ed|ing)|produc(?:es|ed|ing)|results? in|get(?:s|ting)?)\b[^.]{0,60}\binstead of\b/i;
/** Where the issue lies and nothing of what goes wrong there ("The issue is in Django's migration
 * writer module, specifically `django.db.migrations.writer`."). */
const ONLY_WHERE = /^(?:(?:so|now|ok(?:ay)?)[,]?\s+)?the (?:issue|problem|bug) (?:is|lies|must be|seems to be) (?:in|with|inside|within|somewhere in)\b[^:]*$/i;
/** A condition and what "we need to" do about it ("… when indexes include `_order`, we need to add
 * those indexes after …"): a plan, not a cause. */
const WHEN_WE_NEED = /^(?:(?:so|now)[,]?\s+)?(?:the (?:issue|problem|bug) is that )?(?:when|if)\b[^,]+,\s*we (?:need|have|should|must) to\b/i;
/** Words of a mechanism: why the code does what it does. */
const MECHANISM = /\b(?:because|since|does(?:n['’]t| not)|do(?:n['’]t| not)|is(?:n['’]t| not)|never|only|without|ignores?|calls?|passes|compares?|checks?|falls? through|fails? to|treats?|skips?|drops?|overrides?|loses?|misses|lacks?|forgets?|strips?)\b/i;

/** Whether a would-be cause says only what is seen or wanted, where, or what to do — not why:
 * the behaviour wanted or the output shown instead, or where it lies, with no word of a mechanism;
 * or what to do about a condition. */
export function symptomOnly(text: string): boolean {
  if (WHEN_WE_NEED.test(text)) return true;
  return (SHOULD_WHEN.test(text) || SHOWN_INSTEAD.test(text) || ONLY_WHERE.test(text)) && !MECHANISM.test(text);
}

/** Least words a cause names besides those any issue has. */
const CAUSE_MIN_WORDS = 3;
const vague = (text: string): boolean => contentWords(text).filter((w) => !ISSUE_WORDS.has(w)).length < CAUSE_MIN_WORDS;

/** The agent's latest conclusion about the cause: a whole sentence saying it ("The issue is that
 * …"), or the sentences after one announcing it ("Now I understand the issue."); when it states
 * none, its latest finding of what the code fails to do. Never a hedge, a question, a sentence
 * leaning on the one before it, nor what it retracted (the caller drops those). */
export function latestCause(sentences: readonly Sentence[], task: TaskText = ''): SourcedLine | null {
  let finding: Sentence | null = null;
  for (let i = sentences.length - 1; i >= 0; i--) {
    const s = sentences[i] as Sentence;
    if (s.role !== 'assistant' || s.code || s.template || !memo(s, MAY_STATE_CAUSE)) continue;
    if (ANNOUNCED_CAUSE.test(s.text) && s.wc <= 12) {
      const said = announcedCause(sentences, i, true);
      // (List items end without a stop: each is ended, so two never run together.)
      const text = causeText(said.map((x) => (/[.!?;]["'”’)\]*_`]*$/u.test(x.text) ? x.text : `${x.text};`)).join(' ').replace(/;$/, '.'));
      if (said.length && !restatesSymptom(text, task) && !symptomOnly(text)) return { text, sources: [s.id], at: s.at, score: 1, round: 0 };
      continue;
    }
    if (!causeSentence(s) || NOT_A_CAUSE.test(s.text)) continue;
    // (The symptom said again is no conclusion about why: an earlier one may be. Nor is a line
    // naming nothing — "The issue is in how it's being used.")
    if (restatesSymptom(causeText(s.text), task) || vague(s.text) || symptomOnly(s.text)) continue;
    if (CAUSE.test(s.text) && s.wc >= 6) {
      // A cause announced with a colon whose first sentence names no mechanism ("The problem is:
      // after `only("name")`, we have immediate set `{'name'}`.") is the first step of its
      // explanation: the steps after it in its message, up to the one that says why, go with it.
      const rest = s.text.replace(COLON_CAUSE, '');
      const steps = rest !== s.text && rest.split(/\s+/).length <= FIRST_STEP_WORDS && !saysWhy(rest) ? explanation(sentences, i) : [];
      const but = steps.length ? null : butHalf(sentences, i);
      return { text: causeText([s, ...steps, ...(but ? [but] : [])].map((x) => x.text).join(' ')), sources: [s.id], at: s.at, score: 1, round: 0 };
    }
    if (!finding && FINDING.test(s.text) && s.wc >= 6) finding = s;
  }
  return finding ? { text: causeText(finding.text), sources: [finding.id], at: finding.at, score: 1, round: 0 } : null;
}

/** A sentence going on from the one before with "But …" that turns it, not one taking it back
 * ("But wait", "But actually") nor a guess ("But maybe …", dropped before this reads them). */
const BUT_HALF = /^but\s+(?!wait\b|actually\b|no\b|hmm|then\b|let\b|I\b|we\b|first\b|now\b)/i;
/** Most words of a "But …" half carried with its cause. */
const BUT_WORDS = 35;

/** The "But …" half said right after a cause in its message ("… then recursively processes the
 * Parent model's ordering. But Parent's ordering is also `-pk`."): the turn that makes the cause a
 * cause. Readers found the cause cut before it. Null when the next sentence is none such, is an
 * announcement (ends on a colon) or a question, or talks of the fix. */
function butHalf(sentences: readonly Sentence[], at: number): Sentence | null {
  const s = sentences[at] as Sentence;
  const n = sentences[at + 1];
  if (!n || n.role !== 'assistant' || n.code || n.message !== s.message || n.index !== s.index + 1) return null;
  if (!BUT_HALF.test(n.text) || n.wc < 4 || n.wc > BUT_WORDS || /[:?]\s*$/.test(n.text) || SOLUTION.test(n.text) || TAKES_BACK.test(n.text)) return null;
  return n;
}

/** A cause announced with a colon after its verb ("The problem is: …", "The issue here is: …"). */
const COLON_CAUSE = /^[^:]{0,60}\b(?:issue|problem|bug|cause|reason)(?: here)? (?:is|was):\s*/i;

/** Most words after the colon of a cause that is only the first step of its explanation: a longer
 * one says it. */
const FIRST_STEP_WORDS = 15;
/** Talk of a way to fix it, anywhere in a sentence. */
const SOLUTION = /\b(?:solution|fix|approach|workaround)\b/i;

/** Whether a sentence names a mechanism in its words (not in its code: `only("name")` is a call). */
const saysWhy = (text: string): boolean => MECHANISM.test(text.replace(/`[^`]*`/g, ' '));

/** The sentences after the first step of an explanation (sentences[at]) in its message, through
 * the first that names a mechanism (up to CAUSE_WORDS words; none when no sentence does). */
function explanation(sentences: readonly Sentence[], at: number): Sentence[] {
  const all = announcedCause(sentences, at, true);
  // (A way out — "One solution is to …" — ends the explanation.)
  const solution = all.findIndex((x) => SOLUTION.test(x.text));
  const steps = solution < 0 ? all : all.slice(0, solution);
  const why = steps.findIndex((x) => saysWhy(x.text));
  return why < 0 ? [] : steps.slice(0, why + 1);
}

/** Whether an agent's sentence states a fix ("The fix should be to …", "I think the fix is to …",
 * "So the logic should be: …"): the State's "Planned fix" says the one that stands. One said after
 * the last message that changed a source file is no key fact (conversation-analysis.ts leaves it
 * out of the pool), abandoned or not; a plan an edit then carried out stays: it says why the file
 * was changed. */
export function statesPlan(s: Sentence): boolean {
  return s.role === 'assistant' && !s.code && memo(s, TALKS_FIX) && PLAN_SHAPE.test(s.text.replace(PLAN_OPENER, ''));
}

