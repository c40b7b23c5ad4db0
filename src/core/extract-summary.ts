// The summary sections: the original goal, standing constraints and preferences, decisions, work
// done, open tasks, errors and how they were resolved, task topics, and where things were left.
// Each is a rule over the sentence pass: cue phrases in English, Chinese and Japanese, and the
// role that said it. Lines are verbatim sentences (or their first clause), never paraphrase, so
// the block reads as what was said and the panel can link every line to its message.
import { memoOf } from './message-memo';
import { callArguments } from './tool-output';
import type { ChatMessage } from './messages';
import type { Sentence } from './extract-sentences';
import type { CompactionRecord, ErrorLine, SourcedLine } from './record';
import { QUESTION } from './traits';
import { CJK_TEXT, defineCue } from './vocab';
import { dedupeKey, overlap, squash, standsAlone, truncateAtWord, truncateBalanced } from './text';
import { contentWords } from './word-scan';
import { aheadAlso } from './sentence-memo';
import { advisesReader } from './extract-rules';

/** The summary sections as the record holds them. */
export type SummarySections = Pick<CompactionRecord, 'constraints' | 'decisions' | 'done' | 'openTasks' | 'errors' | 'topics'>;

/** Most lines one round keeps per section. */
const SECTION_LIMIT = 40;
/** Longest stored line; rendering may shorten further. */
const MAX_LINE = 320;

// Verbs of work an assistant does, so "don't give up on your dreams" is not a standing instruction
// while "don't touch the templates" is.
const WORK_VERB =
  '(?:use|write|add|include|change|touch|modify|mention|call|edit|delete|remove|rename|move|format|translate|reply|answer|respond|suggest|recommend|create|make|put|say|output|print|commit|push|run|install|import|list|link|cite|quote|keep|explain|summari[sz]e|ask|send|post|share|show|start|end|open|read|save|sort|spell|capitali[sz]e|abbreviate|exceed|go over|test|refactor|break|overwrite)';
const CONSTRAINT_START = new RegExp(
  `^(?:please\\s+)?(?:(?:always|never|don['’]?t|do not|avoid|only|make sure (?:to|you)|be sure to|remember to|from now on,?|going forward,?)\\s+(?:\\w+\\s+)?${WORK_VERB}\\b|(?:keep|bear)\\s+(?:[\\w-]+\\s+){0,5}in mind\\b)`,
  'i',
);
// The patterns below that can match anywhere in a sentence are split in two: the English part,
// tried only on text holding one of its cue words (vocab.ts: the sentence pass flags them as it
// reads), and the CJK part, tried only on text holding CJK. Most sentences hold neither, and a
// pattern run over every sentence is what this pass would otherwise cost.
const CONSTRAINT_EN = new RegExp(
  `\\b(?:I(?: would|['’]d)? (?:prefer|rather)|I (?:never|don['’]?t|do not) want\\b|my preference|you (?:must|should|need to|have to)(?: not|n['’]t)? (?:always |never |only )?${WORK_VERB}\\b|(?:always|never) ${WORK_VERB}\\b)`,
  'i',
);
const CONSTRAINT_CUE = defineCue(['prefer', 'rather', 'want', 'preference', 'must', 'should', 'need', 'have', 'always', 'never']);
const CONSTRAINT_CJK = /总是|永远|不要|别再|必须|务必|请用|请使用|禁止|只用|始终|いつも|必ず|しないで|ないでください|を使って|常に/;
const DECISION_EN = /\b(?:decided|decide to|we['’]ll go with|let['’]s go with|let['’]s use|going with|settled on|agreed|I['’]ll go with|chose|we chose|the plan is|we will use|opted|the decision)\b/i;
const DECISION_CUE = defineCue(['decided', 'decide', 'go', 'going', 'settled', 'agreed', 'chose', 'plan', 'use', 'opted', 'decision']);
const DECISION_CJK = /决定|我们用|決めた|決定/;
const DONE_EN =
  /^(?:(?:I|we)(?:['’]ve| have)\s+(?:now\s+|successfully\s+|also\s+|just\s+)?(?!been\b|had\b|felt\b|heard\b|seen\b|met\b|meant\b|lost\b|left\b|kept\b|spent\b|got\b|gotten\b|thought\b|learnt\b|learned\b|wanted\b|loved\b|enjoyed\b|noticed\b|realized\b|realised\b|tried\b|started\b|reproduced\b|found\b|identified\b|located\b|understood\b|traced\b|examined\b|explored\b|looked\b|reviewed\b|analy[sz]ed\b|investigated\b|narrowed\b)[a-z]+(?:ed|en|t)\b|(?:I|we)\s+(?:now\s+|successfully\s+|also\s+|just\s+)?(?:created|added|updated|fixed|implemented|wrote|written|modified|changed|removed|renamed|moved|refactored|installed|configured|set up|replaced|inserted|saved|deleted|made|completed|finished|resolved|applied)|(?:done|fixed|created|added|updated|implemented|modified|changed|removed|renamed|completed|finished|resolved)\b|(?:the |this )?(?:fix|change|patch|test|tests|issue|bug)\s+(?:is|are|has been|have been|was|were)\s+(?:now\s+)?(?:done|fixed|applied|passing|resolved|working|complete))/i;
const DONE_CJK = /已(?:经)?(?:完成|修复|添加|更新|创建)|完了しました|修正しました|追加しました/;
const TASK_START = /^(?:next(?: steps?)?[:,]|todo\b|- \[ \]|remaining:|still need to|I (?:still )?need to|we (?:still )?need to)/i;
const TASK_EN = /\b(?:next step|not yet (?:done|implemented))\b/i;
const TASK_CUE = defineCue(['next', 'yet']);
const TASK_CJK = /下一步|待办|次に/;
const REQUEST_EN =
  /^(?:(?:can|could|would|will) you|please|pls|help me|I (?:need|want) (?:you )?to|I['’]d like (?:you )?to|let['’]s|how (?:do|can|should) I|(?:what|which|where|when) (?:should|can|do) (?:I|we)\b|write|create|add|make|fix|implement|explain|summari[sz]e|find|show|list|update|change|refactor|rename|remove|delete|draft|translate|review|check|compare|generate|build|set up|organi[sz]e|convert|move|merge|insert|read|search)\b/i;
const REQUEST_CJK = /请|帮我|能不能|可以.*吗|してください|して下さい|お願いします|教えて/;

/** A pattern split as above, tried on a sentence: its English part where the cue words are, its
 * CJK part where CJK is (a cue of 0: the English part is anchored, and cheap to try anywhere). */
function saysSo(s: Sentence, en: RegExp, cue: number, cjk: RegExp): boolean {
  return ((cue === 0 || (s.wordFlags & cue) !== 0) && en.test(s.text)) || ((s.wordFlags & CJK_TEXT) !== 0 && cjk.test(s.text));
}

const TODO_ITEM = /^\s*(?:[-*+]\s+)?\[ \]\s+(.+)/;
const DONE_ITEM = /^\s*(?:[-*+]\s+)?\[[xX]\]\s+(.+)/;

// Error lines: exception lines (Python/JS/Java style, dotted names allowed), compiler and tool
// "error:" lines, shell failures. The traceback header itself carries nothing.
const ERROR_LINE =
  /^\s*(?:(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Warning|Fault|Failure|Interrupt|Exit|Configured|DoesNotExist|NotFound|NotReady|Invalid)\b(?::\s.*[^,{[(]|:)?|(?:error|fatal|ERROR|FATAL|Error|npm ERR!|FAIL(?:ED)?)(?:\[[^\]]*\])?[: ]\s*(?![-+*/%&|^!<>]?=)\S.*|.*: (?:command not found|No such file or directory|Permission denied)|.*\b(?:Segmentation fault|core dumped)\b.*|错误[:：].+|エラー[:：].+)$/;
/** A sentence that says what is about to be done, not what was done. */
const INTENT = /^(?:(?:first|now|next|then|ok(?:ay)?|so),?\s+)?(?:I|we)(?:['’]ll| will| need to| have to| should| must| am going to|['’]m going to| want to)\b|^(?:(?:first|now|next|then|ok(?:ay)?|so),?\s+)?let(?: me|['’]s)\b/i;
const RESOLVE = /\b(?:fix|fixed|fixes|resolv|install|instead|works now|now works|passes|solved|the (?:issue|problem|cause) (?:was|is)|turned out|because|workaround)\w*/i;

const line = (s: Sentence, text: string, score: number): SourcedLine => ({
  text: truncateAtWord(squash(text), MAX_LINE),
  sources: [s.id],
  at: s.at,
  score,
  round: 0,
});

/** A sentence's section line as `line` writes it, its key (lower case: a cheap key here, the chain
 * re-keys with dedupeKey), and whether it stands alone: the text's own, kept per sentence object
 * (with the text it was read from: an open task's line is the part after its marker). */
interface ShownLine {
  from: string;
  text: string;
  /** Written when a section first compares it (`lineKey`), not for every line read ahead. */
  key: string | null;
  alone: boolean;
}
const lineKey = (shown: ShownLine): string => (shown.key ??= shown.text.toLowerCase());
function shownLine(s: Sentence, from: string): ShownLine {
  const hit = s.shown as ShownLine | null;
  if (hit !== null && hit.from === from) return hit;
  const text = truncateAtWord(squash(from), MAX_LINE);
  const out: ShownLine = { from, text, key: null, alone: standsAlone(from) };
  s.shown = out;
  return out;
}

/** (The error lines one message shows are kept with it: message-memo.ts.) */

/** An exception line: a qualified or bare name ending in Error or Exception, then its message. */
const EXCEPTION_LINE = /^(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception)\b:/;
/** A shell's "command not found" for one line of a script it ran. */
const SHELL_NOT_FOUND = /^(?:ba|z|da)?sh: line \d+: .+: command not found$/;
/** A test runner's tally or per-test heading. */
const RUNNER_TALLY = /^(?:FAILED \((?:failures|errors)=\d+|(?:ERROR|FAIL): \w+ \([\w.]+\)$|=+ .*\b\d+ (?:failed|errors?)\b)/;

function errorLinesOf(m: ChatMessage): string[] {
  const memo = memoOf(m);
  const hit = memo.errors as string[] | undefined;
  if (hit !== undefined) return hit;
  // (A message that shows none is cached too, so the test below runs once per message.)
  if (!mayShowErrors(m)) {
    memo.errors = NO_LINES;
    return NO_LINES;
  }
  const lines = m.content.split('\n');
  const found: string[] = [];
  for (const raw of lines) {
    if (raw.length < 6) continue;
    // Tags (<output>, </error>) are dropped; a line without any is not copied to find none.
    // So is pytest's "E   " margin: the error is the line after it.
    const l = (raw.includes('<') ? raw.replace(/<\/?\w+>/g, '') : raw).trim().replace(/^E\s{2,}(?=\S)/, '');
    if (l.length < 6 || l.length > 400 || /^Traceback\b/.test(l)) continue;
    // A line that announces more ("ERROR: Exception:") or breaks off mid-call says nothing whole.
    if (ERROR_LINE.test(l) && !/[([{,]$/.test(l) && standsAlone(l)) found.push(l);
  }
  // (A test runner's tally and its per-test heading — "FAILED (errors=1)", "ERROR: test_x
  // (tests.T)" — only say that something failed: beside the exception line that says what, they
  // are no error of their own. Readers met one failed import as five "Unresolved" lines.)
  if (m.role === 'tool' && found.some((l) => EXCEPTION_LINE.test(l))) {
    const kept = found.filter((l) => !RUNNER_TALLY.test(l));
    found.length = 0;
    found.push(...kept);
  }
  // (A shell reading a broken script's lines as commands — "bash: line 10: Add: command not found"
  // once per line — met one error: its first line says it.)
  if (m.role === 'tool') {
    const shellLines = found.filter((l) => SHELL_NOT_FOUND.test(l));
    if (shellLines.length > 1) {
      const kept = found.filter((l) => !SHELL_NOT_FOUND.test(l) || l === shellLines[0]);
      found.length = 0;
      found.push(...kept);
    }
  }
  if (m.role === 'tool' && m.isError && !found.length) {
    const firstLine = lines.map((l) => l.trim()).find(Boolean);
    if (firstLine) found.push(firstLine);
  }
  // In assistant prose an error line must be quoted output, not a sentence about errors.
  const keep = m.role === 'assistant' ? found.filter((l) => !/\s(?:the|this|an?|I)\s/i.test(l.slice(0, 40)) && /:/.test(l)) : found;
  memo.errors = keep;
  return keep;
}

/** Errors and, when a later assistant message says what fixed it, the resolution. */
/** Whether a message is read for error lines: users' only when they paste one, system never. */
const mayShowErrors = (m: ChatMessage): boolean => m.role !== 'system' && (m.role !== 'user' || /Traceback|Error|error:/.test(m.content));

const NO_LINES: string[] = [];

/** Reads a message's error lines ahead of compaction (see `prepareMessage`). */
export function prepareErrorLines(m: ChatMessage): void {
  errorLinesOf(m);
}

export function extractErrors(messages: readonly ChatMessage[], sentences: readonly Sentence[]): ErrorLine[] {
  const errors: ErrorLine[] = [];
  const seen = new Map<string, ErrorLine>();
  // (Each error's sources as a set beside its list: an error shown in every tool result must not
  // make each sighting a scan of all the earlier ones.)
  const sourcesOf = new Map<ErrorLine, Set<string>>();
  messages.forEach((m, mi) => {
    const keep = errorLinesOf(m);
    if (!keep.length) return;
    const at = Number.isFinite(m.createdAt) && m.createdAt > 0 ? m.createdAt : 0;
    for (const text of keep) {
      const key = keyOfError(text);
      const existing = seen.get(key);
      if (existing) {
        existing.score += 1;
        const ids = sourcesOf.get(existing) as Set<string>;
        if (!ids.has(m.id)) {
          ids.add(m.id);
          existing.sources.push(m.id);
        }
        continue;
      }
      // (Cut before a bracket it would leave open: "Key (content_type_id, codename)=(12, add…".)
      const err: ErrorLine = { text: truncateBalanced(squash(text), MAX_LINE), sources: [m.id], at, score: 1, round: 0 };
      const resolution = findResolution(messages, sentences, mi);
      if (resolution) err.resolution = resolution;
      seen.set(key, err);
      sourcesOf.set(err, new Set(err.sources));
      errors.push(err);
    }
  });
  return errors;
}

/** errorKey of an error line, worked out once per line text: the same error shows in many
 * messages, and every compaction reads them all. (Bounded: cleared past KEY_MEMO_LIMIT lines.) */
const keyMemo = new Map<string, string>();
const KEY_MEMO_LIMIT = 20_000;
function keyOfError(text: string): string {
  let key = keyMemo.get(text);
  if (key === undefined) {
    if (keyMemo.size >= KEY_MEMO_LIMIT) keyMemo.clear();
    keyMemo.set(text, (key = errorKey(text)));
  }
  return key;
}

/** One form of an error: without pytest's "E   " margin or the module path of its class, so
 * `E   django.core.exceptions.ImproperlyConfigured: x` and `ImproperlyConfigured: x` are one error. */
export function errorKey(text: string): string {
  // Also one error: the same message with other numbers ("'max_length' is 5 but … 14" and "… 6"),
  // or under another class prefix ("Error: 'NoneType' object …" and "AttributeError: 'NoneType' …").
  return dedupeKey(
    text
      .replace(/^E\s+/, '')
      .replace(/^(?:[\w.]*(?:Error|Exception|Warning|ERROR|FATAL|Fatal|error|fatal)(?:\[[^\]]*\])?:\s*)/, '')
      .replace(/\d+/g, '0'),
  );
}

/** A command that fixes an environment: installing or upgrading what was missing. */
const FIX_COMMAND = /^(?:sudo\s+)?(?:pip3?|python[\d.]*\s+-m\s+pip|npm|pnpm|yarn|apt(?:-get)?|brew|conda|cargo|go)\s+(?:install|add|get|upgrade)\b/;

/** What resolved an error: the first sentence of a later assistant message (within four messages)
 * that says what fixed it — whole, never a lead-in — or else the install command run after it. */
function findResolution(messages: readonly ChatMessage[], sentences: readonly Sentence[], afterMessage: number): string | undefined {
  // Sentences are in message order: start at the first one after the error's message (a binary
  // search, so a trajectory with many distinct errors is not errors × sentences).
  let lo = 0;
  let hi = sentences.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sentences[mid] as Sentence).message <= afterMessage) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (s.role !== 'assistant' || s.code) continue;
    if (s.message > afterMessage + 4) break;
    // (What fixed it, not what is about to be tried: "I need to install dependencies." is a plan.)
    if (RESOLVE.test(s.text) && !INTENT.test(s.text) && s.keyCount >= 3 && s.wc <= 40 && standsAlone(s.text)) return squash(s.text);
  }
  for (let i = afterMessage + 1; i < Math.min(messages.length, afterMessage + 5); i++) {
    const m = messages[i];
    for (const call of m?.role === 'assistant' ? (m.toolCalls ?? []) : []) {
      const args = callArguments(call);
      const command = typeof args?.command === 'string' ? (args.command.split('\n')[0] ?? '').trim() : '';
      if (FIX_COMMAND.test(command) && command.length <= 120) return command;
    }
  }
  return undefined;
}

/** How one sentence classifies: the same for the same sentence of the same message wherever it
 * sits, so it is memoised with the sentence pass. */
interface SentenceClass {
  constraint: boolean;
  /** Text of an open task ("[ ] …" item, or an assistant's "still need to …"). */
  open: string | null;
  /** Text of a done item or line (assistant). */
  done: string | null;
  decision: boolean;
  /** A request (the start of a user message): a topic, or the last open request. */
  request: boolean;
}

function classify(s: Sentence): Readonly<SentenceClass> {
  const hit = s.summary as SentenceClass | undefined;
  if (hit) return hit;
  const text = s.text;
  // A line shorter than five words never reads as a run of what was said ("Agreed, Dave!").
  const words = s.keyCount >= 2 && s.wc >= 5;
  const question = (s.traits & QUESTION) !== 0;
  const constraint = (s.role === 'user' || s.role === 'system') && words && !question && (CONSTRAINT_START.test(text) || saysSo(s, CONSTRAINT_EN, CONSTRAINT_CUE, CONSTRAINT_CJK)) && !advisesReader(text);
  let open: string | null = null;
  let done: string | null = null;
  let request = false;
  if (s.role === 'user') {
    const todo = TODO_ITEM.exec(text);
    if (todo) open = todo[1] ?? text;
    else request = words && saysSo(s, REQUEST_EN, 0, REQUEST_CJK);
  } else if (s.role === 'assistant') {
    const doneItem = DONE_ITEM.exec(text);
    if (doneItem) done = doneItem[1] ?? text;
    else if (words && saysSo(s, DONE_EN, 0, DONE_CJK)) done = text;
    else {
      const todo = TODO_ITEM.exec(text);
      if (todo) open = todo[1] ?? text;
      else if (words && (TASK_START.test(text) || saysSo(s, TASK_EN, TASK_CUE, TASK_CJK))) open = text;
    }
  }
  const decision = s.role !== 'system' && words && !question && saysSo(s, DECISION_EN, DECISION_CUE, DECISION_CJK);
  // Most sentences match nothing: they share one object (never mutated) rather than get their own.
  const out = constraint || decision || request || open !== null || done !== null ? { constraint, open, done, decision, request } : NO_CLASS;
  // Kept with the sentence: the same sentence of the same message classifies the same.
  s.summary = out;
  return out;
}

const NO_CLASS: Readonly<SentenceClass> = Object.freeze({ constraint: false, open: null, done: null, decision: false, request: false });
// (Classified as the message arrives, with the other answers about a sentence alone.)
aheadAlso((s) => {
  if (s.code || s.role === 'tool') return;
  const c = classify(s);
  // A sentence some section takes: its line too (the text extractSections reads for it).
  if (!s.template && (c.constraint || c.decision || c.request || c.open !== null || c.done !== null)) shownLine(s, (s.role === 'assistant' ? c.done : null) ?? c.open ?? s.text);
});

/** All sections but the goal and errors, classified from the sentence pass. */
export function extractSections(sentences: readonly Sentence[]): Omit<SummarySections, 'errors'> {
  // Matches are collected as positions first; lines are built only for the ones a section keeps.
  const hits = { c: [] as number[], d: [] as number[], w: [] as number[], o: [] as number[], t: [] as number[] };
  const texts = new Map<number, string>();
  let lastUser: Sentence | null = null;

  sentences.forEach((s, i) => {
    if (s.code || s.role === 'tool') return;
    const c = classify(s);
    // (A harness's instruction template is not the user's standing instruction: it is the same in
    // every run, and an agent's system prompt, never compacted, is where it belongs. `build` drops
    // it, and lead-ins such as "You MUST use this EXACT command to submit:".)
    if (c.constraint) hits.c.push(i);
    if (s.role === 'user') {
      lastUser = s;
      if (c.open !== null) {
        hits.o.push(i);
        texts.set(i, c.open);
      } else if (s.index < 2 && c.request) hits.t.push(i);
    }
    if (s.role === 'assistant') {
      if (c.done !== null) {
        hits.w.push(i);
        texts.set(i, c.done);
      } else if (c.open !== null) {
        hits.o.push(i);
        texts.set(i, c.open);
      }
    }
    if (c.decision) hits.d.push(i);
  });
  const build = (idx: readonly number[], limit: number, fromEnd: boolean, score: (s: Sentence) => number): SourcedLine[] => {
    const out: SourcedLine[] = [];
    const seen = new Set<string>();
    const order = fromEnd ? [...idx].reverse() : idx;
    for (const i of order) {
      if (out.length >= limit) break;
      const s = sentences[i] as Sentence;
      if (s.template) continue;
      // Every section line stands alone: balanced markup, and no lead-in whose content is gone.
      // (What `line` makes of it and its key, read once per sentence: a long conversation
      // says the same decision many times, and every saying is a hit.)
      const shown = shownLine(s, texts.get(i) ?? s.text);
      if (!shown.alone) continue;
      const key = lineKey(shown);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      out.push({ text: shown.text, sources: [s.id], at: s.at, score: score(s), round: 0 });
    }
    return fromEnd ? out.reverse() : out;
  };
  const one = (): number => 1;
  const constraints = build(hits.c, SECTION_LIMIT, false, (s) => 1 + (s.role === 'system' ? 1 : 0));
  const decisions = build(hits.d, SECTION_LIMIT, true, one);
  const done = build(hits.w, SECTION_LIMIT * 2, true, one);
  const open = build(hits.o, SECTION_LIMIT * 2, true, one);
  const topics = build(hits.t, SECTION_LIMIT, true, one);
  // The last request, when nothing answered it as done, is an open task.
  const lu = lastUser as Sentence | null;
  // (A standing instruction phrased as a request — "Please keep … in mind" — is no task.)
  if (lu && !classify(lu).constraint && saysSo(lu, REQUEST_EN, 0, REQUEST_CJK) && !open.some((o) => o.text.toLowerCase() === squash(lu.text).toLowerCase())) open.push(line(lu, lu.text, 1));

  // Bounded: a section is a summary, and a long session must not make every later step slower.
  const last = <T>(xs: T[], n: number): T[] => xs.slice(Math.max(0, xs.length - n));
  return {
    constraints,
    decisions,
    done: last(done, SECTION_LIMIT),
    openTasks: last(closeTasks(open, done), SECTION_LIMIT),
    topics,
  };
}

/** Open tasks that a later "done" line covers (most of their words) are moved out; returns the
 * still-open ones. Used within a round and when chaining. */
export function closeTasks(open: readonly SourcedLine[], done: readonly SourcedLine[]): SourcedLine[] {
  if (!done.length) return [...open];
  const doneWords = done.map((d) => new Set(contentWords(d.text).map(stem)));
  return open.filter((t) => {
    const words = contentWords(t.text).map(stem);
    if (words.length === 0) return true;
    return !doneWords.some((dw) => overlap(words, dw) >= 0.6);
  });
}

/** A request as the block marks it: done when a "done" line covers it (see closeTasks), else open. */
export function topicStatus(topic: SourcedLine, done: readonly SourcedLine[]): 'Open' | 'Done' {
  return closeTasks([topic], done).length ? 'Open' : 'Done';
}

/** A crude English stem, enough to match "draft the schedule" with "drafted the schedule". */
function stem(word: string): string {
  return word.replace(/(?:ing|ed|es|s)$/, '') || word;
}
