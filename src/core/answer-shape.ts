// The shape of an assistant's answer that a user comes back to: a list of options, venues,
// companies, steps. One sentence picked from its middle cannot answer "what was the third one you
// gave me?"; the items' heads in the answer's own words can, at a fraction of the answer's size.
// A head is an item's bold term, or its words before a " - " or ": " that explains it, or the
// whole item when it is short. Pure; English-agnostic (reads markup, not words).
import { memoOf } from './message-memo';
import type { ChatMessage } from './messages';
import { dropLoneSurrogates } from './text';

/** A top-level list item: a number or bullet at the line's start (one space of indent at most:
 * deeper lines are sub-items, details of the item above). */
const ITEM = /^ ?(?:\d{1,2}[.)]|[-*•+])\s+(\S.*)$/u;
/** A line at the margin labelled by a word and its number, "Day 1: …", "Week 2 - …" (bold marks
 * around the label allowed): an item of a list written without markers. */
const LABELLED = /^(?:\*\*|__)?(\p{L}+) (\d{1,2})(?:\*\*|__)?(?::|\s[-–—])(?:\*\*|__)?\s+\S/u;
/** Such an item's label and what it names, up to an aside (a bracket, a comma, a dash). */
const LABELLED_ITEM = /^(?:\*\*|__)?(\p{L}+ \d{1,2})(?:\*\*|__)?(?::|\s[-–—])(?:\*\*|__)?\s+([^(,;:–—]+?)(?:\*\*|__)?\s*(?:[(,;:–—]|\s-\s|$)/u;
/** Words what a labelled item names may have. */
const LABELLED_WORDS = 8;

/** A bold term opening the item ("**Mindful.org**: …"). */
const BOLD = /^(?:\*\*|__)(.{2,80}?)(?:\*\*|__)/u;
/** The item's head before what explains it ("Patagonia - this outdoor …", "Headspace app: …"). */
const SEPARATED = /^(.{2,80}?)(?:\s[-–—]\s|:\s)/u;

/** A field and its value: "Length: 70.6 m", "**Range**: 15,000 km" (bold marks taken off first),
 * the value up to an aside in brackets ("Length: 37.8 meters (124 feet 1 inch)": the same again
 * in other units). */
const FIELD = /^([^:]{2,40}):\s+(.{1,40}?)(?:\s+\([^)]*\).*)?$/u;
const LABEL_WORDS = 3;
const VALUE_WORDS = 4;

/** Items a list needs before its heads are its shape (two are a sentence's "A or B"). */
const MIN_ITEMS = 3;
/** Words a head may have: more is an explanation, not a name (and a reader takes a longer run
 * of words for a sentence cut short). */
const HEAD_WORDS = 6;
/** Heads carried at most from one message. */
const MAX_HEADS = 12;

const wordsIn = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** The head of one list item, or null when the item is all explanation. */
export function itemHead(item: string): string | null {
  const text = item.trim();
  // "Day 1: Baked cod with roasted vegetables (carrots, …)": the label and what
  // it names ("Day 1" alone says nothing).
  const labelled = LABELLED_ITEM.exec(text);
  if (labelled) {
    const named = (labelled[2] as string).replace(/[\s.]+$/u, '').trim();
    if (wordsIn(named) <= LABELLED_WORDS && /[\p{L}\p{N}]/u.test(named) && !/\*\*|__|`|\?$/.test(named)) return dropLoneSurrogates(`${labelled[1]}: ${named}`);
  }
  const bold = BOLD.exec(text);
  // "Length: 70.6 m" — a field with a short value that holds a figure: the label alone ("Length")
  // says nothing the user can come back for.
  const field = FIELD.exec(text.replace(/\*\*|__/g, ''));
  if (field) {
    const [, label = '', value = ''] = field;
    const head = `${label.trim()}: ${value.replace(/[\s.;,]+$/u, '').trim()}`;
    if (wordsIn(label) <= LABEL_WORDS && wordsIn(value) <= VALUE_WORDS && /\p{N}/u.test(value) && !head.includes('`')) return dropLoneSurrogates(head);
  }
  const raw = bold?.[1] ?? SEPARATED.exec(text)?.[1] ?? (wordsIn(text) <= HEAD_WORDS ? text : '');
  // Markup around it and a closing stop or colon are the list's, not the head's; markup inside it
  // would not read as the answer's words.
  const head = raw.replace(/^(?:\*\*|__|`)+|(?:\*\*|__|`)+$/g, '').replace(/[\s.:;,]+$/u, '').trim();
  if (/\*\*|__|`/.test(head)) return null;
  // (A question heading an item, "Want to earn more?", introduces it; it names nothing.)
  if (!head || wordsIn(head) > HEAD_WORDS || !/[\p{L}\p{N}]/u.test(head) || /\?$/.test(head)) return null;
  // (A template's placeholder, "[Your Field of Expertise]", is a blank the user
  // fills in, not an item of the answer: readers met it in a list of a cover letter's strengths.)
  if (/^\[[^\]]*\]$/.test(head)) return null;
  return dropLoneSurrogates(head);
}

/** The heads of a message's list items, in order, when it holds a list of at least MIN_ITEMS
 * items most of which have a head; else []. One list only: an answer that goes on after its list
 * with a paragraph and a second list ("Here are the apps: … Also consider: …") or writes sub-items
 * flush under its numbered items gave one line mixing both ("Zipp 303 S; …; Weight; Tire
 * compatibility"), which readers could not follow. The list is a run of items of one marker kind
 * (numbers or bullets) that a paragraph of prose ends; items of the other kind inside it are its
 * sub-items. The first run that is a list is the answer's. Code blocks are skipped. */
export function listHeads(content: string): string[] {
  for (const run of itemRuns(content)) {
    const heads: string[] = [];
    for (const item of run) {
      const head = itemHead(item);
      if (head && !heads.includes(head)) heads.push(head);
    }
    if (run.length >= MIN_ITEMS && heads.length >= Math.max(MIN_ITEMS, Math.ceil(run.length * 0.6))) return heads.slice(0, MAX_HEADS);
  }
  return [];
}

/** A message's runs of top-level list items (see listHeads), each as its items' texts. A numbered
 * item that goes on with the numbering after a paragraph ("1. **Patagonia**", its explanation
 * flush below it, "2. …") goes on with the run. */
function itemRuns(content: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  let kind = '';
  let last = 0;
  let broken = false;
  let fenced = false;
  const end = (): void => {
    if (run.length) runs.push(run);
    run = [];
    kind = '';
    broken = false;
  };
  for (const line of content.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    // ("Day 1: Baked cod …", "Day 2: …": a list written without markers, its
    // items numbered by their labels — readers found one recipe step standing for a five days'
    // menu whose days were written so.)
    const labelled = LABELLED.exec(line);
    const m = ITEM.exec(line) ?? (labelled ? [line, line] : null);
    if (!m) {
      // A paragraph at the left margin ends the list; blank lines and indented lines (an item's
      // own explanation) do not.
      if (run.length && /^\S/.test(line)) broken = true;
      continue;
    }
    const number = labelled ? [line, labelled[2] as string] : /^ ?(\d+)/.exec(line);
    const k = labelled ? `label ${labelled[1]}` : number ? 'number' : 'bullet';
    if (broken && !(k !== 'bullet' && kind === k && Number(number?.[1]) === last + 1)) end();
    broken = false;
    if (!kind) kind = k;
    // (A bullet under a numbered item, written flush: a detail of the item above.)
    if (k !== kind) continue;
    if (number) last = Number(number[1]);
    run.push(m[1] ?? line);
  }
  end();
  return runs;
}

/** listHeads of a message, read once per message object (compaction reads the same messages
 * every round). */
export function listHeadsOf(m: ChatMessage): string[] {
  const memo = memoOf(m);
  if (memo.heads === undefined) memo.heads = listHeads(m.content);
  return memo.heads as string[];
}

/** Longest command or query line an answer is carried as (characters). */
const CODE_CHARS = 200;

/** An answer whose first code block is one line — the command or query the user asked for
 * ("qemu-system-x86_64 -cdrom … -vnc :1"), in backticks; '' for any other answer. Readers found
 * the answer's sentence explaining one flag kept and the command itself lost (code is never a
 * fact sentence). */
export function codeAnswer(content: string): string {
  const open = /^\s*(?:```|~~~)[^\n]*\n/m.exec(content);
  if (!open) return '';
  const rest = content.slice(open.index + open[0].length);
  const close = /^\s*(?:```|~~~)\s*$/m.exec(rest);
  if (!close) return '';
  const lines = rest.slice(0, close.index).split('\n').map((l) => l.trim()).filter(Boolean);
  const line = lines[0] ?? '';
  if (lines.length !== 1 || line.length > CODE_CHARS || line.includes('`') || !/[\p{L}]/u.test(line)) return '';
  return `\`${dropLoneSurrogates(line)}\``;
}

/** codeAnswer of a message, read once per message object. */
export function codeAnswerOf(m: ChatMessage): string {
  const memo = memoOf(m);
  if (memo.code === undefined) memo.code = codeAnswer(m.content);
  return memo.code as string;
}

/** Whether a listed fact's text is a code answer (codeAnswer): one backticked span. */
export const isCodeAnswer = (text: string): boolean => /^`[^`]+`$/.test(text);

