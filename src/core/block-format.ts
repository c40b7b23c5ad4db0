// The `<previous_context>` block's format: its tags, its sections in their stable order with
// their headings or labels, how key facts are laid out (one turn per line, labelled with the speaker
// and the day), how a block is assembled from its lines, and how one section is read back out of a
// block (what the summary panel counts as sent there). What goes *into* the block, within the
// budget, is render.ts's; this file only says how it is written. Pure.
import type { EditableSection } from './edit-types';
import type { LeftOffLine, SourcedLine } from './record';
import { describeDay, resolveRelativeDates } from './dates';
import { dropLoneSurrogates, wordCount } from './text';
import { isCodeAnswer } from './answer-shape';
import { listCount, shownList } from './list-shown';

export { LIST_SHOWN, listCount, shownList } from './list-shown';

export const OPEN_TAG = '<previous_context>';
export const CLOSE_TAG = '</previous_context>';

export type SectionId =
  | 'goal'
  | 'constraints'
  | 'decisions'
  | 'done'
  | 'open'
  | 'errors'
  | 'modified'
  | 'read'
  | 'searched'
  | 'references'
  | 'topics'
  | 'facts'
  | 'leftOff'
  | 'request'
  | 'nextStep'
  | 'state'
  | 'people';

/** The lines written under another line, while room is left: how an error was resolved (under
 * the error), the command the work left off at and the lines of its output (under "Left off", the
 * output fenced as code). The panel reads them back with the same functions. */
export const RAN_PREFIX = '- Ran: ';
export const resolutionLine = (resolution: string): string => dropLoneSurrogates(`  - Then: ${resolution}`);
export const ranLine = (command: string, outcome = ''): string => dropLoneSurrogates(`${RAN_PREFIX}${command}${outcome ? `${OUTCOME_MARK}${outcome}` : ''}`);
/** Between a command and its outcome on one line. */
export const OUTCOME_MARK = ' — ';
export const outputLine = (line: string): string => dropLoneSurrogates(`  ${line}`);
/** A record's left-off output lines, as saved (a saved record is read as it is: what is not a line
 * of text is not shown). */
export function outputOf(leftOff: LeftOffLine | null | undefined): string[] {
  return Array.isArray(leftOff?.output) ? leftOff.output.filter((l): l is string => typeof l === 'string' && l !== '') : [];
}

/** Display order of the sections (stable format). */
export const ORDER: SectionId[] = ['people', 'goal', 'request', 'constraints', 'state', 'decisions', 'done', 'open', 'errors', 'modified', 'read', 'searched', 'references', 'topics', 'facts', 'leftOff', 'nextStep'];

export const HEADINGS: Record<SectionId, string> = {
  goal: 'Goal:',
  constraints: 'Constraints and preferences:',
  decisions: 'Decisions:',
  done: 'Done:',
  open: 'Open tasks:',
  errors: 'Errors met:',
  modified: 'Files modified',
  read: 'Files read',
  searched: 'Files searched',
  references: 'References:',
  topics: 'Requests:',
  facts: 'Key facts:',
  leftOff: 'Left off:',
  request: 'Latest request:',
  nextStep: 'Next step:',
  state: 'State:',
  people: 'Speakers:',
};

/** The State line of a run at work on files that has edited no source file yet (state-format.ts),
 * and the heading that says it instead when more State lines follow. */
export const UNCHANGED_LINE = '- Changed: no source file edited yet';
export const STATE_UNCHANGED = 'State (source files unchanged):';
/** Where a run that edited source files stands since its last edit (state-format.ts): the State's
 * heading says it when the block has room for the longer heading (the renderer puts it first among
 * the State's lines). Readers could not tell whether a fix was in place and tested. (At most four
 * words before the colon.) */
export const STATE_STATUS = {
  passed: 'State (edited, test passed):',
  failed: 'State (edited, test failed):',
  ran: 'State (edited, checked since):',
  untested: 'State (edited, untested):',
} as const;
const STATUS_HEADINGS: readonly string[] = Object.values(STATE_STATUS);
/** The heading a State's first line says (it is not shown as a line), or undefined. */
function stateHeading(first: string | undefined): string | undefined {
  if (first === UNCHANGED_LINE) return STATE_UNCHANGED;
  return first !== undefined && STATUS_HEADINGS.includes(first) ? first : undefined;
}

/** Formats a list line of paths. Paths are written out whole: a factored-out directory would make
 * the block name files that appear nowhere in it ("under django/: db/models.py"). */
export function fileLine(label: string, paths: readonly string[]): string {
  if (!paths.length) return '';
  return `${label}: ${paths.join(', ')}`;
}

/** Ends a sentence: a turn's facts share a line, and a sentence that ended on a closing quote or
 * bracket without a stop must not run into the next one (`… called it "magic" Then …`). */
export const SENTENCE_END = /[.!?…。！？]["'”’)\]*_`]*$/u;

/** A fact's text, ended as a sentence, with its relative dates resolved against the day it was said. */
export function factText(f: SourcedLine): string {
  // (An answer's list heads are names, not a sentence: no stop is added after the last.)
  if (f.listed) return shownList(f.text);
  // (A line that ends on a comma or semicolon — a verse, a name list cut at its line break — ends
  // there: a stop after a comma — "wall,." — read as a glitch.)
  const text = SENTENCE_END.test(f.text) ? f.text : `${f.text.replace(/\s*[,;:]+$/, '')}.`;
  const resolved = f.at > 0 ? resolveRelativeDates(f.text, f.at) : '';
  return resolved ? `${text} (${resolved})` : text;
}

/** Words past which one turn's facts continue on a line of their own (labelled again): a
 * paragraph-long bullet is hard to read in the panel. */
const LINE_WORDS = 120;

/** A fact's day label and its shown text's word count, worked out once per fact object (and text):
 * a render lays the same facts out again on every try (render.ts), each time through groupFacts. */
const factBits = new WeakMap<SourcedLine, { text: string; own: string; at: number; day: string; n: number; bold: boolean }>();
function bitsOf(f: SourcedLine, text: string): { day: string; n: number; bold: boolean } {
  const hit = factBits.get(f);
  if (hit !== undefined && hit.text === text && hit.own === f.text && hit.at === f.at) return hit;
  // (`bold`: whether it is a list item opening on its bold term, BOLD_ITEM, asked once too.)
  const bits = { text, own: f.text, at: f.at, day: f.at > 0 ? describeDay(f.at) : '', n: wordCount(text), bold: BOLD_ITEM.test(f.text) };
  factBits.set(f, bits);
  return bits;
}

/** A list item's text: its bold term first ("**Khan Academy**: …"). */
const BOLD_ITEM = /^(?:\d{1,2}[.)]\s+)?(?:\*\*|__)[^*_]/;

/** Fact lines in conversation order, one turn per line: the facts of one message share a line (up
 * to LINE_WORDS words), labelled with who said them and the day (when it changes). A line never
 * joins two turns, so every line reads as what one side said at one point. `apart`: each fact on a
 * line of its own (an agent at work: findings of one long reasoning message glued on one line read
 * as one run-on claim, readers found, with a step of an example beside the conclusion). */
export function groupFacts(facts: readonly SourcedLine[], roleOf: (id: string) => string | undefined, textOf: (f: SourcedLine) => string = factText, dayShown = '', apart = false): string[] {
  const lines: string[] = [];
  // (`dayShown`: the day a heading above the lines already names.)
  let shownDay = dayShown;
  const sorted = bySeq(facts);
  // Each fact's text, and the line being gathered as the range [start, i) of `sorted` (no arrays
  // per line: a render lays its facts out some forty times).
  const texts = new Array<string>(sorted.length);
  let start = 0;
  // (The line's group key — `${id}#listed`, `${id}#item${i}` or the id — as its parts, compared by
  // `sameGroup` without writing the string for every fact of every layout.)
  let groupKind = PLAIN_KEY;
  let groupId = '';
  let groupAt = 0;
  let label = '';
  // (Only a render's own `textOf`, which fixes each fact's text for the render, is memoised: the
  // plain factText reads a fact as it is now.)
  const memo = textOf === factText ? null : lineMemoOf(textOf);
  let words = 0;
  for (let i = 0; i < sorted.length; i++) {
    const f = sorted[i] as SourcedLine;
    const id = f.sources[0] ?? '';
    // (An answer's list heads are a line of their own: "Assistant listed: A; B; C." So is an item
    // of a list opening on its bold term: two glued on one line read as one run-on sentence.)
    const text = textOf(f);
    texts[i] = text;
    const { day, n, bold } = bitsOf(f, text);
    const kind = f.listed ? LISTED_KEY : bold || apart ? ITEM_KEY : PLAIN_KEY;
    if (i === start || !sameGroup(kind, id, i, groupKind, groupId, groupAt) || words + n > LINE_WORDS) {
      if (i > start) lines.push(groupLine(memo, sorted, texts, start, i, label));
      start = i;
      groupKind = kind;
      groupId = id;
      groupAt = i;
      words = 0;
      const role = roleOf(id) ?? '';
      const who = capitalised(role);
      // (Who, then the day when it changes; a comma between when both are there.)
      // (A command or query the answer gave is no list: "Assistant gave: `…`".)
      const said = f.listed ? `${who || 'Assistant'} ${isCodeAnswer(f.text) ? 'gave' : `listed${listCount(f.text)}`}` : who;
      const when = day && day !== shownDay ? day : '';
      label = said && when ? `${said}, ${when}` : said || when;
      if (day) shownDay = day;
    }
    words += n;
  }
  if (sorted.length > start) lines.push(groupLine(memo, sorted, texts, start, sorted.length, label));
  return lines;
}

const PLAIN_KEY = 0;
const LISTED_KEY = 1;
const ITEM_KEY = 2;
export const groupKeyOf = (kind: number, id: string, i: number): string => (kind === LISTED_KEY ? `${id}#listed` : kind === ITEM_KEY ? `${id}#item${i}` : id);

/** Whether two facts' group keys are the same string. Without a # in either id, each key's only #
 * starts its suffix: the same key is the same kind and id, and never two items (their indexes
 * differ); otherwise the strings are written and compared. */
export function sameGroup(kind: number, id: string, i: number, gKind: number, gId: string, gAt: number): boolean {
  if (id.includes('#') || gId.includes('#')) return groupKeyOf(kind, id, i) === groupKeyOf(gKind, gId, gAt);
  return kind === gKind && kind !== ITEM_KEY && id === gId;
}

/** The facts by `seq`, ties in their order: what `[...facts].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))`
 * gives, without a comparator called per pair (a render lays its facts out some forty times). With
 * whole, non-negative seqs each fact is one number, its seq times a power of two past the count
 * plus its index (exact while safe), sorted natively and read back by a division that is exact. */
export function bySeq(facts: readonly SourcedLine[]): SourcedLine[] {
  const n = facts.length;
  let span = 1;
  while (span < n) span *= 2;
  const keys = new Float64Array(n);
  let inOrder = true;
  for (let i = 0; i < n; i++) {
    const seq = (facts[i] as SourcedLine).seq ?? 0;
    const key = seq * span + i;
    if (!Number.isInteger(seq) || seq < 0 || !Number.isSafeInteger(key)) return [...facts].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    keys[i] = key;
    if (i > 0 && key < (keys[i - 1] as number)) inOrder = false;
  }
  if (inOrder) return facts.slice();
  keys.sort();
  const out = new Array<SourcedLine>(n);
  for (let i = 0; i < n; i++) {
    const key = keys[i] as number;
    out[i] = facts[key - Math.floor(key / span) * span] as SourcedLine;
  }
  return out;
}

/** A speaker's label with its first letter capitalised ("user" → "User"), written once per name:
 * every line of every layout try starts with one. */
const capitals = new Map<string, string>();
function capitalised(role: string): string {
  if (!role) return '';
  let who = capitals.get(role);
  if (who === undefined) {
    who = `${role[0]?.toUpperCase() ?? ''}${role.slice(1)}`;
    // (Roles and the speakers' names: a handful per conversation; bounded all the same.)
    if (capitals.size > 256) capitals.clear();
    capitals.set(role, who);
  }
  return who;
}

/** A fact line written once: the same facts under the same label, with the same `textOf`, make the
 * same line, and a render lays its facts out again on every try (render-facts.ts), each time
 * changing a line or two. Kept by the line's first fact (weakly) under its `textOf` function. */
interface GroupLine {
  facts: readonly SourcedLine[];
  label: string;
  line: string;
}
const lineMemos = new WeakMap<(f: SourcedLine) => string, WeakMap<SourcedLine, GroupLine[]>>();
/** Lines kept per first fact: a fact heads a handful of different lines in one render at most. */
const LINES_PER_FACT = 4;

function lineMemoOf(textOf: (f: SourcedLine) => string): WeakMap<SourcedLine, GroupLine[]> {
  let memo = lineMemos.get(textOf);
  if (!memo) lineMemos.set(textOf, (memo = new WeakMap()));
  return memo;
}

function groupLine(memo: WeakMap<SourcedLine, GroupLine[]> | null, sorted: readonly SourcedLine[], texts: readonly string[], from: number, to: number, label: string): string {
  if (!memo) return writeLine(texts, from, to, label);
  const first = sorted[from] as SourcedLine;
  let known = memo.get(first);
  if (known) {
    for (let k = 0; k < known.length; k++) {
      const e = known[k] as GroupLine;
      if (e.label === label && sameFacts(e.facts, sorted, from, to)) return e.line;
    }
  } else memo.set(first, (known = []));
  const line = writeLine(texts, from, to, label);
  if (known.length >= LINES_PER_FACT) known.shift();
  known.push({ facts: sorted.slice(from, to), label, line });
  return line;
}

/** The line of the texts [from, to) under `label`. */
function writeLine(texts: readonly string[], from: number, to: number, label: string): string {
  // (A fact carried with its referent says that sentence again: the user's choice, and "It seems
  // like a more engaging question" carried with it, read as the choice twice on one line.)
  const kept: string[] = [];
  for (let i = from; i < to; i++) {
    const text = texts[i] as string;
    const next = i + 1 < to ? (texts[i + 1] as string) : '';
    const before = kept.length ? (kept[kept.length - 1] as string) : '';
    if ((next && next.startsWith(text)) || (before && before.endsWith(text))) continue;
    kept.push(text);
  }
  const body = kept.join(' ');
  return dropLoneSurrogates(label ? `- ${label}: ${body}` : `- ${body}`);
}

/** Whether `facts` are `sorted[from, to)`, the same objects in the same order. */
function sameFacts(facts: readonly SourcedLine[], sorted: readonly SourcedLine[], from: number, to: number): boolean {
  if (facts.length !== to - from) return false;
  for (let i = 0; i < facts.length; i++) if (facts[i] !== sorted[from + i]) return false;
  return true;
}

/** The block of these lines, sections in display order, headings where they take one. */
export function assemble(lines: ReadonlyMap<SectionId, readonly string[]>): string {
  const body: string[] = [];
  for (const id of ORDER) {
    const ls = lines.get(id);
    if (!ls?.length) continue;
    // (A State that opens on "nothing edited" says so in its heading, when lines follow it: the
    // reader learns it first, in the block's own words rather than a line of no source's.)
    // (So does one that edited: whether a check ran since, and how it went.)
    // (A status heading left with no line under it by the final trim says nothing.)
    if (id === 'state' && ls.length === 1 && STATUS_HEADINGS.includes(ls[0] as string)) continue;
    const heading = id === 'state' && ls.length > 1 ? stateHeading(ls[0]) : undefined;
    if (heading) {
      body.push(heading, ...ls.slice(1));
      continue;
    }
    if (needsHeading(id)) body.push(HEADINGS[id]);
    body.push(...ls);
  }
  return body.length ? `${OPEN_TAG}\n${body.join('\n')}\n${CLOSE_TAG}` : '';
}

/** The sections a summary line can be in (the record's editable sections), as the block names them. */
const SECTION_OF: Record<EditableSection, SectionId> = {
  goal: 'goal',
  request: 'request',
  constraints: 'constraints',
  decisions: 'decisions',
  done: 'done',
  openTasks: 'open',
  errors: 'errors',
  facts: 'facts',
  leftOff: 'leftOff',
  nextStep: 'nextStep',
  topics: 'topics',
};

/**
 * The block's text under one section: its heading or label line and the list items after it (a
 * key fact that is also a decision was sent as a key fact, not as a decision). '' when the block
 * has no such section.
 */
export function blockSection(block: string, section: EditableSection): string {
  const id = SECTION_OF[section];
  const out: string[] = [];
  let current: SectionId | null = null;
  for (const line of block.split('\n')) {
    if (line === OPEN_TAG || line === CLOSE_TAG) continue;
    // A list item (or an error's resolution, or output shown as code, under it, or a thread's
    // sub-heading among the key facts) belongs to the section above it; any other line starts a
    // section, named by its heading or label.
    if (!/^(?:\s*- |\s|### )/.test(line)) current = sectionOfLine(line) ?? null;
    if (current === id) out.push(line);
  }
  return out.join('\n');
}

/** Whether the block names its sections the way this version writes them (a block saved by an
 * older version may not). */
export function hasSections(block: string): boolean {
  return block.split('\n').some((line) => sectionOfLine(line) !== undefined);
}

/** The section a block line opens: its heading, or the label a one-line section starts with. */
function sectionOfLine(line: string): SectionId | undefined {
  // ("Left off, John: …": between two people the line names who said it.)
  if (LEFT_OFF_NAMED.test(line)) return 'leftOff';
  if (line === STATE_UNCHANGED || STATUS_HEADINGS.includes(line)) return 'state';
  return ORDER.find((s) => line === HEADINGS[s] || line.startsWith(`${HEADINGS[s]}${needsHeading(s) ? '' : ' '}`));
}
const LEFT_OFF_NAMED = /^Left off, [^:\n]{1,40}: /;

/** The "Left off" label, naming who said the line when the text names the speakers ("Left off,
 * John:"): the one place that writes the form LEFT_OFF_NAMED reads. */
export function leftOffLabel(who?: string): string {
  return who ? `Left off, ${who}:` : HEADINGS.leftOff;
}

/** A record line's text as its section in the block shows it (a "Done:" item without the label). */
export function shownText(section: EditableSection, text: string): string {
  return section === 'done' ? withoutLabel(text, 'done') : text;
}

/** `text` without a leading "<label>:" that repeats its section's heading ("Done: the fence line is
 * in …" under "Done:"), when at least three words follow it. */
function withoutLabel(text: string, label: string): string {
  const m = new RegExp(`^${label}\\s*[:—–-]\\s+`, 'i').exec(text);
  if (!m) return text;
  const rest = text.slice(m[0].length);
  return wordCount(rest) >= 3 ? rest : text;
}

/** A block line's own words: without its bullet and a short label ("Latest request:", "Open:"). */
export function bareOf(line: string): string {
  return line.replace(/^- /, '').replace(/^[A-Z][a-z]+(?: [a-z]+){0,3}: /, '');
}

export function needsHeading(id: SectionId): boolean {
  return !['people', 'goal', 'request', 'leftOff', 'nextStep', 'modified', 'read', 'searched', 'references'].includes(id);
}
