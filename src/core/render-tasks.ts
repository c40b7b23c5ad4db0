// The block's task lines: the goal (only when there is one), the latest request, where the work was
// left off (with the command it ran then, or not at all when the line only announced it) and the
// next step — whole sentences, the trailing ones dropped to fit the line's share. Between two people
// a "Speakers:" line names them, no Goal is written, and "Left off" shows the exchange it stopped in;
// in a chat with an assistant over many threads no Goal either, only the latest request.
import type { CompactionRecord, SourcedLine, ThreadLine } from './record';
import type { BlockDraft } from './block-draft';
import { type SectionId, leftOffLabel, ranLine } from './block-format';
import { FIRST_SHARE } from './block-sections';
import { isRequestText } from './extract-goal';
import { speakersLine } from './speakers';
import { balancedMarkup, dedupeKey, isLeadIn, squash } from './text';
import { splitSentences } from './sentence-split';
import { contentWords } from './word-scan';

/** Threads from which, in a chat with an assistant, the first request is no longer the goal (the
 * latest is): a conversation of many unrelated threads has no one aim. */
const STALE_GOAL_THREADS = 4;
/** Share of a task line's room it gets in a conversation without tool work: a line's first
 * sentence may take twice TALK_FIRST_SHARE of it (so a small block still has its goal), the
 * sentences after it go up to TALK_TASK_SHARE. In talk the facts carry the conversation. */
const TALK_TASK_SHARE = 0.4;
const TALK_FIRST_SHARE = 0.6;
/** Room (estimated tokens) a goal's first sentence may take whatever the shares say. */
const GOAL_FLOOR = 40;

/**
 * Adds a task line: whole sentences only, the trailing ones dropped to fit the line's share (a goal
 * cut mid-sentence reads as a fragment); the first sentence may take up to twice the share. Returns
 * the text shown ('' when none).
 */
export function addTaskLine(draft: BlockDraft, id: SectionId, line: SourcedLine | null | undefined, label: string, work: boolean): string {
  if (!line) return '';
  const { target, cost } = draft;
  // In talk the facts carry the conversation: the task lines get less room than in work. A line
  // the user rewrote gets the whole budget.
  const room = target * (FIRST_SHARE[id] ?? 0.1);
  const limit = line.edited ? target : Math.floor(room * (work ? 1 : TALK_TASK_SHARE));
  // A short goal shows even in a small block (one that replaced only a few messages): up to
  // GOAL_FLOOR tokens, or half the block.
  const floor = id === 'goal' ? Math.min(GOAL_FLOOR, Math.floor(target / 2)) : 0;
  const firstLimit = line.edited ? target : Math.max(floor, 2 * Math.floor(room * (work ? 1 : TALK_FIRST_SHARE)));
  const fitting = (sentences: readonly string[]): string => {
    let text = '';
    for (const sentence of sentences) {
      const next = text ? `${text} ${sentence}` : sentence;
      if (cost(`${label} ${next}`) + 1 > (text ? limit : firstLimit)) break;
      text = next;
    }
    return text;
  };
  const sentences = splitSentences(squash(line.text));
  let text = fitting(sentences);
  // (At work "Left off" ends on the step the last command carries out: when what the agent found
  // before it does not fit, the step alone still says where the work stands.)
  if (!text && work && id === 'leftOff' && sentences.length > 1) text = fitting(sentences.slice(-1));
  // A line that opens with context ("Keep in mind: … Can you summarise …?") and has room for
  // the context only starts at the request instead, when the request says what it is about on
  // its own ("What should I do first?" does not: the context before it is the goal then).
  // A line that already opens with a question or request keeps its opening.
  const first = sentences[0] ?? '';
  const ask = isRequestText(first) || /\?["'”’)\]*_`]*$/u.test(first) ? -1 : sentences.findIndex(isRequestText);
  if (ask > 0 && !text.includes(sentences[ask] as string) && contentWords(sentences[ask] as string).length >= 3) text = fitting(sentences.slice(ask)) || text;
  return text && draft.add(id, `${label} ${text}`, target) ? text : '';
}

/** What the task lines showed, for the sections and facts after them not to say it again. */
export interface TaskTexts {
  goalText: string;
  requestText: string;
  /** The goal and latest request as shown, lower case. */
  goalLower: string;
  /** The "Left off" line as shown, lower case ('' when it was not). */
  leftOffText: string;
  nextStepText: string;
  /** An assistant chat of so many threads that the goal is the current one. */
  staleGoal: boolean;
}

export interface TaskInput {
  work: boolean;
  threads: readonly ThreadLine[];
  manyThreads: boolean;
  roleOf: (id: string) => string | undefined;
  speakers: CompactionRecord['speakers'];
}

/** The speakers' line, the goal, the latest request (first in a conversation doing work), "Left
 * off" and the next step, in that order. */
export function addTaskLines(draft: BlockDraft, record: CompactionRecord, input: TaskInput): TaskTexts {
  const { work, threads, manyThreads, speakers } = input;
  // A Goal only when there is one: two people catching up have none; in a chat with an assistant
  // over many threads, the latest request is no goal of the whole chat (readers took "Goal: <the
  // last question>" over eleven topics for a wrong label): it is written as what it is, "Latest
  // request:", and the threads the key facts are laid out by say the rest.
  // (With a few threads the first request is still the aim, and the latest one is shown beside it.)
  const staleGoal = record.kind === 'assist' && threads.length >= STALE_GOAL_THREADS;
  const goalLine = record.kind === 'talk' ? null : staleGoal ? (record.request ? null : record.goal) : record.goal;
  const people = speakersLine(speakers);
  if (people) draft.add('people', people, draft.target);
  const goalText = addTaskLine(draft, 'goal', goalLine, 'Goal:', work);
  draft.goalText = goalText;
  // The latest request: first in a conversation doing work (it is the task at hand); in talk, where
  // the kept messages carry the current topic, only with the room the key facts leave.
  const requestText = work || (record.kind === 'assist' && manyThreads) ? addTaskLine(draft, 'request', currentRequest(record), 'Latest request:', work) : '';
  // A key fact the task lines hold is not repeated.
  const goalLower = `${goalText}\n${requestText}`.toLowerCase();
  const leftOffText = addLeftOff(draft, record, requestText, input);
  const nextStepText = addTaskLine(draft, 'nextStep', record.nextStep, 'Next step:', work).toLowerCase();
  return { goalText, requestText, goalLower, leftOffText, nextStepText, staleGoal };
}

/** The latest request when it is still the task at hand: with an assistant, not one the assistant
 * answered after it (readers took an answered "Latest request:" for what was still to do; its
 * thread's head says it). */
export function currentRequest(record: CompactionRecord): SourcedLine | null {
  return record.kind === 'assist' && record.request?.answered ? null : (record.request ?? null);
}

/** Room a block needs before "Left off" shows the question it answers (see addLeftOff). */
const ANSWERING_MIN_ROOM = 600;

/** "Left off" (nor a key fact it holds or that holds it is repeated), with the command it ran then
 * as a list item under it; a line announcing the command is shown with it or not at all; between
 * two people, with the question it answers before it. Returns the line as shown, lower case. Sets
 * the draft's task text. */
export function addLeftOff(draft: BlockDraft, record: CompactionRecord, requestText: string, input: TaskInput): string {
  const { speakers, roleOf } = input;
  const { target } = draft;
  // (A step taken without words: "Left off:" stands over its command alone.)
  const commandOnly = record.leftOff?.command !== undefined && record.leftOff.text === record.leftOff.command;
  // (Between two people, who said it: "Left off, John: …"; either could have.)
  const leftOffRole = record.leftOff ? roleOf(record.leftOff.sources[0] ?? '') : undefined;
  const leftOffWho = speakers && (leftOffRole === 'user' || leftOffRole === 'assistant') ? speakers[leftOffRole] : undefined;
  // (What the agent found before its last command, when it has no room: the command alone still
  // says where the work stands.)
  const withLine = commandOnly ? '' : addLeftOffLine(draft, record, requestText, input, leftOffWho).toLowerCase();
  const alone = commandOnly || (!withLine && input.work && !!record.leftOff?.command);
  const leftOffText = alone ? (draft.add('leftOff', leftOffLabel(), target) ? record.leftOff?.command?.toLowerCase() ?? '' : '') : withLine;
  draft.tasksLower = `${requestText}\n${leftOffText}`.toLowerCase();
  if (leftOffText) {
    draft.shown.add(dedupeKey(leftOffText));
    // The command it ran then, verbatim, as a list item under the line (what "Let me run the
    // tests:" announced).
    const command = record.leftOff?.command;
    // (Not one ending in a colon or with unbalanced markup. A pipeline is shown: its " | " may read
    // as an item separator to a scorer, but a continuation needs the command the work stood at, and
    // without it a "Let me …:" line is not shown either, so "Left off" went missing.)
    // (With its outcome in one line, when the state read one: what the last step showed.)
    const ran = command !== undefined && command !== '' && !isLeadIn(command) && balancedMarkup(command) && (draft.add('leftOff', ranLine(command, record.leftOff?.outcome), target) || draft.add('leftOff', ranLine(command), target));
    // A line that announces the command ("Let me read the method:") is shown with it or not at all.
    if (!ran && (alone || isLeadIn(leftOffText))) {
      draft.remove('leftOff');
      draft.shown.delete(dedupeKey(leftOffText));
      draft.tasksLower = requestText.toLowerCase();
    }
  }
  return leftOffText;
}

/** Between two people, the question the "Left off" line answers, as the first line of the exchange
 * ("- Tim: <question>" under "Left off:"), when the block does not already say it, has room for
 * more than a few facts (a small block spends it on facts), and the question names something; null
 * when none. (With an assistant the question is the latest request or its thread's head, shown
 * already.) */
function exchangeOpening(draft: BlockDraft, record: CompactionRecord, requestText: string, input: TaskInput): { line: string; key: string } | null {
  const { speakers, roleOf } = input;
  const answering = record.kind === 'talk' ? record.leftOff?.answering : undefined;
  if (!answering || draft.target < ANSWERING_MIN_ROOM || contentWords(answering.text).length < 4) return null;
  const key = dedupeKey(answering.text);
  if (draft.shown.has(key) || requestText.toLowerCase().includes(answering.text.toLowerCase())) return null;
  const role = roleOf(answering.sources[0] ?? '');
  const who = role === 'user' || role === 'assistant' ? speakers?.[role] : undefined;
  return who ? { line: `- ${who}: ${squash(answering.text)}`, key } : null;
}

/** The "Left off" line, said by `who` (between two people): under a "Left off:" heading as the
 * exchange it stopped in, each line its speaker's ("- Tim: <question>" then "- John: <answer>"),
 * when both fit; else the line on its own. (Readers took "Left off, Tim: <question>" over "- John:
 * <answer>" for a label of the wrong message.) */
function addLeftOffLine(draft: BlockDraft, record: CompactionRecord, requestText: string, input: TaskInput, who: string | undefined): string {
  if (!who) return addTaskLine(draft, 'leftOff', record.leftOff, leftOffLabel(), input.work);
  if (!record.leftOff || !draft.add('leftOff', leftOffLabel(), draft.target)) return '';
  const opening = exchangeOpening(draft, record, requestText, input);
  if (opening && draft.add('leftOff', opening.line, draft.target)) {
    const answer = addTaskLine(draft, 'leftOff', record.leftOff, `- ${who}:`, input.work);
    if (answer) return answer;
    // (The question without its answer says nothing of where the talk stopped.)
    draft.remove('leftOff');
    draft.shown.delete(opening.key);
    if (!draft.add('leftOff', leftOffLabel(), draft.target)) return '';
  }
  const text = addTaskLine(draft, 'leftOff', record.leftOff, `- ${who}:`, input.work);
  if (!text) draft.remove('leftOff');
  return text;
}
