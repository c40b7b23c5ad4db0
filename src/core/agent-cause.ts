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
function announcedCause(sentences: readonly Sentence[], at: number): Sentence[] {
  const head = sentences[at] as Sentence;
  const out: Sentence[] = [];
  let words = 0;
  for (let i = at + 1; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (s.message !== head.message || !causeSentence(s) || NOT_A_CAUSE.test(s.text)) break;
    if (out.length && words + s.wc > CAUSE_WORDS) break;
    out.push(s);
    words += s.wc;
  }
  return out;
}

/** The fix the agent settled on ("The fix should be to pass the original field name …"). */
const PLAN = /^(?:(?:so|now|ok(?:ay)?)[,]?\s+)?the (?:fix|solution|correct fix|right fix) (?:should be|is|would be|will be|needs to be)\b/i;

/** The agent's latest statement of the fix it means to make, when no source file was edited after
 * it (then it is done, and Changed says how): a whole sentence, or the sentences after one that
 * announces it ("So the fix is:"). `lastEdit`: index among the removed messages of the last
 * message that changed a source file (-1: none). */
export function latestPlan(sentences: readonly Sentence[], lastEdit: number): SourcedLine | null {
  for (let i = sentences.length - 1; i >= 0; i--) {
    const s = sentences[i] as Sentence;
    if (s.message <= lastEdit) return null;
    if (s.role !== 'assistant' || s.code || s.template || !memo(s, STATES_PLAN)) continue;
    if (/:\s*$/.test(s.text) && s.wc <= 12) {
      const said = announcedCause(sentences, i);
      if (said.length) return { text: causeText(said.map((x) => x.text).join(' ')), sources: [s.id], at: s.at, score: 1, round: 0 };
      continue;
    }
    if (causeSentence(s) && s.wc >= 8 && !/\b(?:in|on) (?:the )?(?:test|import)/i.test(s.text)) return { text: causeText(s.text), sources: [s.id], at: s.at, score: 1, round: 0 };
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
const STATES_PLAN = question((s) => PLAN.test(s.text), assistantProse);

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
      const said = announcedCause(sentences, i);
      // (List items end without a stop: each is ended, so two never run together.)
      const text = causeText(said.map((x) => (/[.!?;]["'”’)\]*_`]*$/u.test(x.text) ? x.text : `${x.text};`)).join(' ').replace(/;$/, '.'));
      if (said.length && !restatesSymptom(text, task)) return { text, sources: [s.id], at: s.at, score: 1, round: 0 };
      continue;
    }
    if (!causeSentence(s) || NOT_A_CAUSE.test(s.text)) continue;
    // (The symptom said again is no conclusion about why: an earlier one may be. Nor is a line
    // naming nothing — "The issue is in how it's being used.")
    if (restatesSymptom(causeText(s.text), task) || vague(s.text)) continue;
    if (CAUSE.test(s.text) && s.wc >= 6) return { text: causeText(s.text), sources: [s.id], at: s.at, score: 1, round: 0 };
    if (!finding && FINDING.test(s.text) && s.wc >= 6) finding = s;
  }
  return finding ? { text: causeText(finding.text), sources: [finding.id], at: finding.at, score: 1, round: 0 } : null;
}
