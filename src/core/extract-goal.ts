// The task lines of a summary: the Goal (the user's first substantive request, or the task of an
// agent harness's first message), the latest request when it differs, where the work was left
// off and the next step the assistant announced. Each is made of whole sentences of one message,
// read from the sentence pass, so a line never starts or ends mid-sentence, never holds a
// greeting, template text or a lead-in whose announced content is gone.
import type { Sentence } from './extract-sentences';
import type { ChatMessage } from './messages';
import type { LeftOffLine, SourcedLine } from './record';
import { QUESTION } from './traits';
import { isReaction, opensOnPointer, pointsEarly } from './salience';
import { isLeadIn } from './text';
import { STANDS_ALONE, memo, question } from './sentence-memo';
import { thinksAloud } from './agent-prose';
import { callArguments, noteToolCommand } from './tool-output';
import { outputLines } from './command-output';
import { MessageGroups } from './message-groups';

/** A thing pointed at, anywhere in a sentence ("I want to make sure I get it on time"). */
const POINTS_AT = /\b(?:it|them|these|those)\b/i;
/** A short question ending on a pointer ("What do you think about that?", "Is it worth it?"). */
const ENDS_ON_POINTER = /^(?:\S+\s+){0,6}(?:it|that|this|them|those|these)\s*\?$/i;

/** Most words a goal or request line carries (whole sentences: the first is kept even if longer,
 * up to {@link MAX_FIRST}). */
const GOAL_WORDS = 60;
const MAX_FIRST = 110;
/** Most words of the "left off" and "next step" lines. */
const LEFT_OFF_WORDS = 45;

// A request: asks for something to be done or explained (English, Chinese, Japanese). Whole words
// only: "I'm looking forward to …" is no "I'm looking for …", "Pleased to …" no "please".
const REQUEST_EN =
  /^(?:(?:hey|hi|ok(?:ay)?|so|now|also|and|but|then)[,!]?\s+)?(?:(?:can|could|would|will) you|please|pls|help me|I (?:need|want|would like) (?:you )?to|I(?:['’]m| am) looking for|I (?:need|want) (?:an?|some) |I (?:need|want) (?!to\b|you\b|it\b|that\b|this\b|them\b)(?:the|more|\w+s) (?:per|for|of|from|in|on|by|with|to)\b|I['’]d like (?:you )?to|I['’]m (?:trying|looking) to|let['’]s|let us|how (?:do|can|should|would) (?:I|we)|(?:what|which|where|when) (?:should|can|could) (?:I|we)|(?:what|which) (?:are|is) (?:some|the best|a good|good)|any (?:tips|ideas|suggestions|advice)|(?:write|create|add|make|fix|implement|explain|summari[sz]e|find|show|list|update|change|refactor|rename|remove|delete|draft|translate|review|check|compare|generate|build|set up|organi[sz]e|convert|move|merge|insert|read|search|suggest|recommend|tell me|give me|plan|outline|describe))\b/i;
/** A request after a leading clause ("I'm upgrading my setup, can you tell me about …?", "… not
 * just hotels so please update your answer"); not an exclamation ("…, can you believe it?"), nor
 * an invitation or a question about plans in small talk ("…, would you like to come?", "…, will
 * you be there?"). */
const REQUEST_MID = /(?:[,;:]\s+(?:(?:so|and|but|then)\s+)?|\s(?:so|and) )(?:(?:can|could) you (?!(?:believe|imagine|guess)\b)|please (?!note\b))\w/i;
/** A request put as a wish to know, anywhere in the sentence ("I'm planning a trip and I was
 * wondering if you could tell me about …", "I'd love to know more about …"). */
const ASKS_INDIRECTLY = /\bI(?:['’]m| am| was) (?:wondering|hoping) (?:if|whether) (?:you|there|anyone)\b|\bI(?:['’]d| would) (?:love|like) to (?:know|learn|hear) (?:more )?(?:about|how|what|which|if|whether)\b/i;
/** "Let's …!" said as a cheer ("Let's keep each other motivated!"), not a task to do. */
const CHEER = /^(?:(?:ok(?:ay)?|so|and|but|now)[,!]?\s+)?let['’]s\b[^.?]*!["'”’)\]]*$/i;
/** A question that asks for help anywhere in it ("Do you have any tips for …?"). */
const ASKS_FOR_HELP = /\b(?:recommend|suggest|suggestions|tips|ideas|advice|best way|help me|how to)\b/i;
const REQUEST_CJK = /请|帮我|能不能|可以.*吗|してください|して下さい|お願いします|教えて/;
/** Greetings, thanks and pleasantries: where a message starts, not what it asks. */
const OPENER = /^(?:hi|hey|hello|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|(?:good|great|nice) to (?:see|hear|meet)|long time no see|how (?:are|r) (?:you|u)|how have you been|how's it going|what's (?:up|new)|thanks|thank you|welcome|dear|sorry)\b/i;
/** Closing pleasantries of an answer: "Let me know if …", "Hope this helps!". */
const CLOSER = /^(?:let me know|hope (?:this|that) helps|feel free|happy to help|good luck|enjoy|have (?:a|fun)|I hope|if you have any|cheers)\b/i;
/** An announced next step: "Next, I'll …", "Let me …", "Now we need to …". */
const NEXT_STEP = /^(?:(?:next|now|then|finally),?\s+)?(?:I['’]ll|I will|let me|let['’]s|we (?:need|still need|should|will)|the next step|next step)\b/i;

/** True for a request sentence (see REQUEST_EN), or a question asking for help ("Do you have any
 * tips for …?"), not one about the other side ("How have you been?"). */
export function isRequest(s: Sentence): boolean {
  return memo(s, REQUEST);
}
// (Asked once per sentence: sentence-memo.ts.)
const REQUEST = question(requestSentence, (s) => !s.code && !s.template && s.wc >= 4);
function requestSentence(s: Sentence): boolean {
  if (s.code || s.template || s.wc < 4 || CHEER.test(s.text)) return false;
  if (REQUEST_EN.test(s.text) || REQUEST_CJK.test(s.text) || REQUEST_MID.test(s.text) || ASKS_INDIRECTLY.test(s.text)) return true;
  return (s.traits & QUESTION) !== 0 && s.wc >= 6 && ASKS_FOR_HELP.test(s.text);
}

/** `isRequest` for text alone (a task line as the record holds it, read back in sentences). */
export function isRequestText(text: string): boolean {
  if (REQUEST_EN.test(text) || REQUEST_CJK.test(text) || REQUEST_MID.test(text) || ASKS_INDIRECTLY.test(text)) return true;
  return /\?["'”’)\]*_`]*$/u.test(text) && ASKS_FOR_HELP.test(text);
}

/** A sentence that can stand in a task line: prose, whole, balanced, not a greeting nor a lead-in. */
function usable(s: Sentence): boolean {
  return !s.code && !s.template && s.wc >= 1 && memo(s, STANDS_ALONE) && !(OPENER.test(s.text) && s.wc <= 6);
}

/** Where a "left off" line may start: not a closing pleasantry nor an exclamation ("I'm so sorry
 * to hear that!", "Wow, that's awesome!"), but what the turn said. */
function substantive(s: Sentence): boolean {
  // (Nor a reaction, "I believe in you, Dave.", nor a sentence leaning on one before it.)
  return usable(s) && s.wc >= 4 && !CLOSER.test(s.text) && !isReaction(s.text) && !opensOnPointer(s.text) && !DEPENDENT.test(s.text) && !(s.role === 'assistant' && ACKNOWLEDGEMENT.test(s.text)) && !/!["'”’)\]*_`]*$/u.test(s.text);
}

/** A sentence that leans on the one before it ("However, …", "But …"): not where a line starts. */
const DEPENDENT = /^(?:however|but|and|additionally|moreover|furthermore|that said|in addition|otherwise|instead)\b/i;

/** How an answer greets what it answers ("It's great to hear that you're …", "I'm happy to help.",
 * "Great question.", "First, I'd like to say that …"): its framing, not where it stood. */
const ACKNOWLEDGEMENT =
  /^(?:(?:it['’]s|it is) (?:great|wonderful|good|nice|lovely|fantastic|amazing|awesome) (?:to hear|that you)|I['’]m (?:so |really )?(?:glad|happy|excited|thrilled|delighted) (?:to (?:help|hear|assist|see that)|that you|you)|I(?:['’]d| would) be (?:happy|glad|delighted) to|(?:great|good|excellent|fantastic) (?:question|idea|choice)\b|that['’]s (?:great|wonderful|fantastic|awesome|a great)|what a (?:great|wonderful|lovely)|thank you for|thanks for|first, I['’]d like to say)|\bI['’]m (?:happy|glad) to help\b/i;

/** A sentence as it reads in a line of several: ended with a full stop when its source line ended
 * without one (a title, a list item), so two sentences never run together. */
function ended(text: string): string {
  return /[.!?…。！？]["'”’)\]*_`]*$/u.test(text) ? text : `${text}.`;
}

/** Whole sentences from `from` on (same message), up to `maxWords`; the first is kept up to
 * MAX_FIRST words. */
function sentencesFrom(group: readonly Sentence[], from: number, maxWords: number): Sentence[] {
  const out: Sentence[] = [];
  let words = 0;
  for (let i = from; i < group.length; i++) {
    const s = group[i] as Sentence;
    // A greeting question after the request ("… my reading hobby. How have you been?") starts
    // small talk (a bare "Hi." inside an issue text does not).
    if (out.length && OPENER.test(s.text) && s.text.includes('?')) break;
    if (!usable(s) || s.wc < 3) {
      if (out.length && (s.code || isLeadIn(s.text))) break; // the request's text ended
      continue;
    }
    if (out.length ? words + s.wc > maxWords : s.wc > MAX_FIRST) break;
    out.push(s);
    words += s.wc;
  }
  return out;
}

/** A task line of whole sentences of one message, each ended as `end` says (a full stop added by
 * default, so two sentences never run together). */
function lineOf(picked: readonly Sentence[], score: number, end: (text: string) => string = ended): SourcedLine | null {
  const first = picked[0];
  if (!first) return null;
  return { text: picked.map((s) => end(s.text)).join(' '), sources: [first.id], at: first.at, score, round: 0 };
}

/** Words of the question a left-off line answers, at most (see questionAnswered). */
const ANSWERING_WORDS = 35;

/** The question the left-off line's message answers: the message before it, by the other side,
 * from its last question on ("Have you been to Universal Studios? Planning a trip there next
 * month."), when it asks one; else null. */
function questionAnswered(groups: MessageGroups, leftOff: SourcedLine): SourcedLine | null {
  let at = -1;
  for (let g = 0; g < groups.length && at < 0; g++) if (groups.first(g).id === leftOff.sources[0]) at = g;
  const answer = groups.at(at);
  const asked = groups.at(at - 1);
  if (!answer || !asked || (asked[0] as Sentence).role === (answer[0] as Sentence).role) return null;
  let q = -1;
  for (let i = asked.length - 1; i >= 0 && q < 0; i--) {
    const s = asked[i] as Sentence;
    if (s.traits & QUESTION && usable(s) && s.wc >= 3 && !OPENER.test(s.text)) q = i;
  }
  if (q < 0) return null;
  return lineOf(sentencesFrom(asked, q, ANSWERING_WORDS), 1);
}

/** The request a user message makes: from its first request sentence on; or, in a message that an
 * agent harness wrote (it holds template sections), its task text from the start. */
function requestOf(group: readonly Sentence[], harness: boolean): Sentence[] {
  if (harness) return sentencesFrom(group, 0, GOAL_WORDS);
  const at = group.findIndex(isRequest);
  if (at < 0) return [];
  // A request among a message's first sentences reads with what comes before it ("I am planning
  // the garden redesign. … What should I do first?"): the line starts with the message.
  const picked = at < 3 ? sentencesFrom(group, 0, GOAL_WORDS) : [];
  if (picked.some((s) => s.index === (group[at] as Sentence).index)) return picked;
  // A request that leans on the question just before it ("… what's the typical turnaround time for
  // shipping? I want to make sure I get it on time.") starts at that question.
  const before = group[at - 1];
  const text = (group[at] as Sentence).text;
  const leans = before && before.traits & QUESTION && usable(before) && (opensOnPointer(text) || pointsEarly(text) || POINTS_AT.test(text));
  return sentencesFrom(group, leans ? at - 1 : at, GOAL_WORDS);
}

export interface TaskLines {
  /** The first substantive request of the removed part. */
  goal: SourcedLine | null;
  /** The last substantive request, when it is another message than the goal's. */
  request: SourcedLine | null;
  /** Where the answer stood: the last assistant message's first substantive sentences (or the
   * last request, when the user spoke last), with the command it ran. */
  leftOff: LeftOffLine | null;
  /** The next step the assistant announced last, when it did. */
  nextStep: SourcedLine | null;
}

/** The task lines of the removed part (see {@link TaskLines}); `earlierTask`: the goal and request
 * of earlier rounds, for what the left-off command's output showed of the task. */
export function extractTaskLines(messages: readonly ChatMessage[], sentences: readonly Sentence[], earlierTask = ''): TaskLines {
  const groups = new MessageGroups(sentences, (s) => s.role === 'user' || s.role === 'assistant');
  let goal: SourcedLine | null = null;
  let request: SourcedLine | null = null;
  // A question that set tools to work ("Which of my notes mention compost?") is the request, even
  // when it asks in no request's words: the tool loop answers it.
  const toolWork = messages.some(callsTool);
  // The goal is the first user message's request line, the latest request the last one's after it:
  // read from each end, so the lines between are never built (one per user message).
  const requestLine = (group: readonly Sentence[]): SourcedLine | null => {
    if ((group[0] as Sentence).role !== 'user') return null;
    const harness = group.some((s) => s.template);
    const asked = toolWork && !harness ? group.findIndex((s) => (s.traits & QUESTION) !== 0 && usable(s) && s.wc >= 4) : -1;
    return lineOf(requestOf(group, harness), 1) ?? (asked >= 0 ? lineOf(sentencesFrom(group, asked, GOAL_WORDS), 1) : null);
  };
  let goalAt = 0;
  for (; goalAt < groups.length && !goal; goalAt++) goal = requestLine(groups.at(goalAt) as Sentence[]);
  for (let i = groups.length - 1; i >= goalAt && !request; i--) request = requestLine(groups.at(i) as Sentence[]);

  let leftOff: TaskLines['leftOff'] = null;
  let nextStep: SourcedLine | null = null;
  const last = groups.at(groups.length - 1);
  if (last && (last[0] as Sentence).role === 'user') {
    // The user spoke last: their request is where things stand (unless it is the goal again).
    let from = last.findIndex(substantive);
    // (A question ending on what the sentence before it says starts there: "However, some argue
    // leaders should focus solely on their job. What do you think about that?" — alone it said
    // nothing of what it asked.)
    if (from > 0 && ENDS_ON_POINTER.test((last[from] as Sentence).text) && usable(last[from - 1] as Sentence)) from--;
    const line = lineOf(requestOf(last, false), 1) ?? (from < 0 ? null : lineOf(sentencesFrom(last, from, LEFT_OFF_WORDS), 1));
    if (line && line.text !== goal?.text && line.text !== request?.text) leftOff = line;
  }
  // The last message that called a tool: an agent's work stands at its command, whatever prose
  // came before it (a step may run with no words at all).
  let lastCallAt = -1;
  for (let i = messages.length - 1; i >= 0 && lastCallAt < 0; i--) if (callsTool(messages[i])) lastCallAt = i;
  const lastCall = lastCallAt >= 0 ? messages[lastCallAt] : undefined;
  for (let g = groups.length - 1; g >= 0 && !leftOff; g--) {
    if (groups.first(g).role !== 'assistant') continue;
    const group = groups.at(g) as Sentence[];
    const at = (group[0] as Sentence).message;
    // Prose said before a few silent steps still says what they were for; older prose does not.
    if (lastCall && at < lastCallAt && callsAfter(messages, at, lastCallAt) > MAX_SILENT_STEPS) break;
    const message = messages[at];
    // A step announced in a message that runs a tool is that step, not a next one: a next step is
    // only one announced after the last action ("Next, I'll …" closing an answer).
    const acts = callsTool(message);
    // The next step it announced has a line of its own; where it stood is what it said before.
    // ("Let me know if you have any other questions." closes an answer; it announces nothing.)
    const announced = acts ? undefined : [...group].reverse().find((s) => usable(s) && NEXT_STEP.test(s.text) && !CLOSER.test(s.text) && s.wc >= 4 && s.wc <= LEFT_OFF_WORDS);
    const before = announced ? group.filter((s) => s.index < announced.index) : group;
    const from = before.findIndex(substantive);
    const picked = acts ? actingStep(group) : from < 0 ? [] : sentencesFrom(before, from, LEFT_OFF_WORDS).filter((s) => !CLOSER.test(s.text));
    const callMessage = lastCall && at <= lastCallAt ? lastCall : message;
    const command = callMessage ? lastCommand(callMessage) : '';
    // A step that only announced the command it ran ("Let me read the method:" + sed …) is where
    // the work stands: the announcement with the command under it (the renderer shows both or
    // neither), rather than an older message's text.
    const leadIn = command && !picked.length && !announced ? [...group].reverse().find((s) => !s.code && !s.template && s.wc >= 3 && isLeadIn(s.text)) : undefined;
    // (The announcement keeps its colon: the command is what it announces.)
    // (A step announced as a lead-in ends as a sentence: what it announced is the command below it.)
    const line = lineOf(picked, 1, (text) => ended(text.replace(/[:：]["'”’)\]*_`]*\s*$/u, ''))) ?? (announced ? lineOf([announced], 1) : leadIn ? lineOf([leadIn], 1, (text) => text) : null);
    if (!line) continue;
    const output = command && callMessage ? outputLines(messages, callMessage, `${earlierTask} ${goal?.text ?? ''} ${request?.text ?? ''}`) : [];
    leftOff = command ? { ...line, command, ...(output.length ? { output } : {}) } : line;
    if (announced && !line.text.includes(announced.text)) nextStep = lineOf([announced], 1);
  }
  // No prose near the last step: where the work stands is its command alone (the line's text is the
  // command; the renderer shows it once, as the command).
  if (!leftOff && lastCall && !(last && (last[0] as Sentence).role === 'user')) {
    const command = lastCommand(lastCall);
    const output = command ? outputLines(messages, lastCall, `${earlierTask} ${goal?.text ?? ''} ${request?.text ?? ''}`) : [];
    if (command) leftOff = { text: command, sources: [lastCall.id], at: lastCall.createdAt > 0 ? lastCall.createdAt : 0, score: 1, round: 0, command, ...(output.length ? { output } : {}) };
  }
  // A line that answers the other side's question is shown with that question (not at work: an
  // agent's last step answers its own plan).
  if (leftOff && !leftOff.command && !toolWork) {
    const answering = questionAnswered(groups, leftOff);
    if (answering && answering.text !== request?.text && answering.text !== goal?.text) leftOff = { ...leftOff, answering };
  }
  return { goal, request, leftOff, nextStep };
}

/** A step the agent announces ("Let me read the method:", "Now I'll run the tests."): what the
 * tool call after it does. ("I need to call django.setup()." says what it found it must do: a
 * finding, kept before the step.) */
export const INTENTION = /^(?:(?:next|now|then|finally|first|ok(?:ay)?|so|good|great|alright)[,!]?\s+)*(?:I['’]ll|I will|let me|let['’]s)\b/i;
/** Most words of what an acting message found, said before the step it announces. */
const FINDING_WORDS = 36;

/**
 * Where an agent stood in a message that calls a tool: what it found (its first substantive
 * sentences, in a row, not thinking aloud — "Now I understand the issue." says nothing), then the
 * one step it announced last: the step the call carries out. Several intentions strung together
 * ("Let me look at X. Let me implement Y. I need to think.") read as none; the others were
 * overtaken by the one nearest the call.
 */
function actingStep(group: readonly Sentence[]): Sentence[] {
  const intends = (s: Sentence): boolean => !s.code && !s.template && s.wc >= 3 && s.wc <= LEFT_OFF_WORDS && INTENTION.test(s.text) && !CLOSER.test(s.text);
  const first = group.findIndex(intends);
  let last = -1;
  for (let i = group.length - 1; i >= 0 && last < 0; i--) if (intends(group[i] as Sentence)) last = i;
  const head = first < 0 ? group : group.slice(0, first);
  const found: Sentence[] = [];
  const from = head.findIndex((s) => substantive(s) && !thinksAloud(s));
  let words = 0;
  for (let i = from; from >= 0 && i < head.length; i++) {
    const s = head[i] as Sentence;
    // (In a row: a sentence dropped between two — retracted, a hedge — leaves them apart.)
    if (found.length && (s.index !== (found[found.length - 1] as Sentence).index + 1 || !usable(s) || thinksAloud(s) || CLOSER.test(s.text))) break;
    if (found.length && words + s.wc > FINDING_WORDS) break;
    found.push(s);
    words += s.wc;
  }
  const step = last >= 0 ? (group[last] as Sentence) : undefined;
  if (!step) {
    if (found.length) return found;
    const any = group.findIndex(substantive);
    return any < 0 ? [] : sentencesFrom(group, any, LEFT_OFF_WORDS).filter((s) => !CLOSER.test(s.text));
  }
  while (found.length && words + step.wc > LEFT_OFF_WORDS) words -= (found.pop() as Sentence).wc;
  return [...found, step];
}

/** Most tool-calling steps without prose after the prose "Left off" is taken from. */
const MAX_SILENT_STEPS = 2;

const callsTool = (m: ChatMessage | undefined): boolean => m?.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0;

/** How many assistant messages in (from, to] called a tool. */
function callsAfter(messages: readonly ChatMessage[], from: number, to: number): number {
  let n = 0;
  for (let i = from + 1; i <= to; i++) {
    if (callsTool(messages[i])) n++;
  }
  return n;
}

/** The first line of the last shell command a message ran (agent runs), at most 160 characters. */
function lastCommand(m: ChatMessage): string {
  if (m.role !== 'assistant' || !m.toolCalls?.length) return '';
  const call = m.toolCalls[m.toolCalls.length - 1];
  // (The plugin's note tools have no command: the step is the tool with what it read or searched.)
  const note = call ? noteToolCommand(call) : null;
  if (note) return note.length <= 160 ? note : '';
  const args = call ? callArguments(call) : null;
  const command = args && typeof args.command === 'string' ? args.command : '';
  const first = command.split('\n')[0]?.trim() ?? '';
  return first.length <= 160 ? first : '';
}
