// The sentence pass: one walk over the removed messages that yields the candidate sentences every
// extractor ranks or classifies. Done once, so compaction stays a few linear passes over the text.
import type { ChatMessage } from './messages';
import { leadingStamp } from './dates';
import { memoOf } from './message-memo';
import { isSpaceCode, squash, unescapedBreaks } from './text';
import { splitSentences } from './sentence-split';
import { wordIds } from './word-scan';
import { denseInSymbols } from './prose-code';
import { LOOSE_MARKUP, traitsOf } from './traits';
import { resetVocabIfFull, vocabGeneration } from './vocab';

export interface Sentence {
  text: string;
  /** `text.length`, kept on the sentence: a pass over every sentence reads the sentence objects
   * anyway, and reading a string's length is a cache miss into the string's own memory (the
   * prefilter's cost of every usable sentence: two thirds of its time). */
  chars: number;
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
  /** Distinct ranking keys (see `contentWords`) as vocabulary ids (vocab.ts), first-seen order;
   * valid for the compaction that built them. */
  ids: readonly number[];
  /** Ranking keys with repeats (`contentWords(text).length`). */
  keyCount: number;
  /** {@link wordCount} of `text` (0 for code, which no extractor counts), counted once here. */
  wc: number;
  /** Its form (traits.ts bits: question, first person, markup …); 0 for code. */
  traits: number;
  /** The vocab flags of its words, OR-ed (with CJK_TEXT when it holds CJK): which pronouns and
   * cue words it may hold, so a pattern that needs one is not tried on text without. */
  wordFlags: number;
  /** Text inside a fenced code block, or tool output that reads as code. */
  code: boolean;
  /** Text of an instruction template: a tagged section such as `<instructions>` or
   * `<format_example>` that an agent harness writes into every run's first message. Not a fact,
   * not the goal (see {@link templateSection}). */
  template: boolean;
  /** The whole of a list item's line ("- Converse Chuck Taylor All Star"): a name among others,
   * which says nothing on a line of its own (answer-shape.ts carries a list as its heads). */
  item?: true;
  /** How the summary rules classify it (extract-summary), worked out once: a sentence is the same
   * object in every compaction of its message. */
  summary?: unknown;
  /** Its section line (extract-summary `shownLine`) and its words' name and code marks
   * (fact-weights `wordMarks`), worked out once: kept on the sentence, not in a WeakMap each,
   * whose entries cost more to add than the answers to read. */
  shown: unknown;
  marks: unknown;
  /** Answers about the sentence alone, asked once (sentence-memo.ts): the first fifteen
   * questions' bits, then the next fifteen's. */
  memo: number;
  memo2: number;
}

const FENCE = /^\s*(```|~~~)/;

/** A line that is only an opening or closing tag (`<instructions>`, `</pr_description>`). */
const TAG_LINE = /^\s*<(\/?)([A-Za-z][\w-]*)>\s*$/;
/** Tag names of instruction-template sections: how to behave, in what format, with examples. What
 * such a section says is the harness speaking, the same in every run, not the user's task. */
const TEMPLATE_TAG = /^(?:instructions?|rules|guidelines|system(?:_prompt)?|(?:output_|response_)?format(?:_\w+)?|examples?(?:_\w+)?|important|requirements|tips|notes|submission|environment)$/i;

/** Tracks tagged sections line by line (`<instructions>` … `</instructions>`): the tags open after
 * each line, innermost last, or null for a tag line itself (it carries nothing). */
export function tagTracker(): (line: string) => readonly string[] | null {
  const open: string[] = [];
  return (line) => {
    const m = TAG_LINE.exec(line);
    if (!m) return open;
    const name = (m[2] ?? '').toLowerCase();
    if (m[1]) {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else open.push(name);
    return null;
  };
}

/** Tracks tagged sections line by line: true while inside an instruction-template section. */
export function templateSection(): (line: string) => boolean | null {
  const track = tagTracker();
  return (line) => {
    const open = track(line);
    return open === null ? null : open.some((t) => TEMPLATE_TAG.test(t));
  };
}

/** 1 for the characters typical of code rather than prose (brackets, operators, slashes …). */
const CODE_SYMBOLS = new Uint8Array(128);
for (const ch of '{}()[];=<>$#|\\_`*/') CODE_SYMBOLS[ch.charCodeAt(0)] = 1;

/** Share of characters typical of code rather than prose. */
function codeLike(line: string): boolean {
  if (line.length < 4) return false;
  let sym = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 128) sym += CODE_SYMBOLS[c] as number;
  }
  if (sym / line.length > 0.08) return true;
  // Indented or starting like a statement, listing, or a line-numbered dump.
  return /^\s{2,}\S|^\s*(?:\d+\s*[|:]?\s|def |class |import |from \S+ import|return\b|if .*:$|for .*:$|@@|[+-]{1,3}\s|at \S+\()/.test(line);
}

/** Words a sentence cannot end on. */
const DANGLING_WORDS = new Set('by to of the a an and or but with for in on at that as from into is are was were be like than because if when which who'.split(' '));

/** A line that ends on a word a sentence cannot end on, with no punctuation after it: what
 * `\b(?:by|to|…)\s*$/i` matches, read backwards from the end (the pattern is tried at every word). */
export function dangles(line: string): boolean {
  let end = line.length;
  while (end > 0 && isSpaceCode(line.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isAsciiWordCode(line.charCodeAt(start - 1))) start--;
  return end - start <= 7 && end > start && DANGLING_WORDS.has(line.slice(start, end).toLowerCase());
}

/** `\w` without the u flag. */
const isAsciiWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** Code in a chat message outside a fence: an indented block (a tab or four spaces), a statement
 * (`x = f(y)`, `return …`, `def …`, `import …`), or a line dense in code punctuation. */
function proseCodeLike(line: string): boolean {
  // Indented code (any depth of tabs, four spaces or more), a run of tabs inside a line (pasted
  // code or output: prose has none), a table row, template syntax (Templater's <% %>, Handlebars' {{ }}).
  // (The pattern /^(?:\t|\s{4,})\s*\S|\t\t|^\s*\||<%|%>|\{\{|\}\}/, its anchored parts tried at
  // the start and the rest found by `includes`, not tried at every position of the line.)
  if (INDENTED.test(line) || TABLE_ROW.test(line) || line.includes('\t\t') || line.includes('<%') || line.includes('%>') || line.includes('{{') || line.includes('}}')) return true;
  if (/^\s*(?:[\w.[\]'"]+\s*[-+*/]?=\s*\S|return\b|def |class \w|import |from \S+ import|@\w|#include|(?:const|let|var|function) )/.test(line) && !/[.!?]\s*$/.test(line)) return true;
  // An expression alone on its line: a member, call or index of a name ("response.content",
  // "df.head()"), as pasted from a console session.
  if (/^\s*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\([^\s()]*\)|\[[^\s\]]*\])+\s*$/.test(line)) return true;
  // Links are prose markup, not code punctuation (prose-code.ts counts each as the word "link").
  return denseInSymbols(line, CODE_SYMBOLS, 8, 0.15);
}

const INDENTED = /^(?:\t|\s{4,})\s*\S/;
const TABLE_ROW = /^\s*\|/;

/** What one message yields: kept with the message object (message-memo.ts; messages are
 * immutable), so a message is split and keyed once however often it is compacted or previewed. */
interface MessagePieces {
  /** The vocabulary generation its word ids belong to. */
  generation: number;
  /** Time of a date stamp the text starts with (0 when none). */
  stampAt: number;
  /** Its sentences. Where the message sits (`message`, `at`) is set by each {@link sentencesOf}. */
  sentences: Sentence[];
}

const NO_IDS: number[] = [];

function sentence(m: ChatMessage, text: string, index: number): Sentence {
  // Every field, `summary` too, from the start: one object shape for all sentences (a field added
  // later would move each sentence to a new shape, and the loops over them would slow down).
  return { text, chars: text.length, id: m.id, role: m.role, message: -1, index, of: 0, at: 0, ids: NO_IDS, keyCount: 0, wc: 0, traits: 0, wordFlags: 0, code: true, template: false, summary: undefined, shown: null, marks: null, memo: 0, memo2: 0 };
}

function proseSentence(m: ChatMessage, text: string, index: number): Sentence {
  const s = sentence(m, text, index);
  // One walk over the text gives the word ids, the word count and what the traits need.
  const scan = wordIds(text);
  s.code = false;
  s.ids = scan.ids;
  s.keyCount = scan.count;
  s.wc = scan.words;
  s.traits = traitsOf(text, scan.words, scan.flags, scan.punct) | (scan.alone ? 0 : LOOSE_MARKUP);
  s.wordFlags = scan.flags;
  return s;
}

function piecesOf(m: ChatMessage): MessagePieces {
  const memo = memoOf(m);
  const hit = memo.pieces as MessagePieces | undefined;
  if (hit !== undefined && hit.generation === vocabGeneration()) return hit;
  let content = m.content;
  const stamp = m.role === 'tool' ? { at: 0, length: 0 } : leadingStamp(content);
  if (stamp.at) content = content.slice(stamp.length);
  const sentences: Sentence[] = [];
  let inFence = false;
  const prose = m.role !== 'tool' && m.role !== 'system';
  const section = m.role === 'user' || m.role === 'system' ? templateSection() : null;
  // A prose line that stops mid-sentence ("The issue can be addressed by") goes on the next line:
  // it is read with it, so no sentence is cut at the line break.
  let carry = '';
  let prevCode = false;
  // (Prose pasted with its line breaks escaped breaks where it shows them.)
  if (prose) content = unescapedBreaks(content);
  const lines = content.split('\n');
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li] as string;
    if (line.length < 2 && !line.trim()) continue;
    const template = section ? section(line) : false;
    if (template === null) continue;
    // A fence opens with or without an info string (```dataview) but closes only bare, as in
    // CommonMark: "```dataview" inside a ```markdown block is content, not the end of the block.
    if (FENCE.test(line) && (!inFence || /^\s*(?:```|~~~)\s*$/.test(line))) {
      inFence = !inFence;
      continue;
    }
    if (!line.trim()) continue;
    // A "# …" line next to code is a comment of that code (pasted without a fence), not a heading.
    const comment: boolean = prose && /^\s*#\s/.test(line) && (prevCode || proseCodeLike(lines[li + 1] ?? ''));
    // A traceback pasted into a message is code: its frames are never facts (the error line after
    // them is read as an error, with its innermost project frame, by error-fate.ts).
    const code: boolean = inFence || comment || TRACEBACK_LINE.test(line) || (prose ? proseCodeLike(line) : codeLike(line));
    prevCode = code;
    if (code) {
      sentences.push(sentence(m, squash(line), sentences.length));
      continue;
    }
    // List and quote markers are markup, not content: the block adds its own bullets.
    let bare = QUOTE_MARK.test(line) ? line.replace(QUOTE_MARK, '') : line;
    // (No dangling line is ever carried onto a list item's: see below.)
    const listed = LIST_MARK.test(bare);
    if (listed) bare = bare.replace(LIST_MARK, '');
    if (carry) {
      bare = `${carry} ${bare.trim()}`;
      carry = '';
    }
    const next = lines[li + 1] ?? '';
    if (dangles(bare) && /^\s*[A-Za-z]/.test(next) && !LIST_MARK.test(next) && !proseCodeLike(next)) {
      carry = bare.trim();
      continue;
    }
    const pieces = splitSentences(bare);
    for (const piece of pieces) {
      // An enumerator inside a line ("… protocols. 3. Monitor usage and costs: …") numbers a list
      // written as one paragraph: it is not part of the sentence after it.
      const text = prose && INLINE_NUMBER.test(piece) ? piece.replace(INLINE_NUMBER, '') : piece;
      const c = !prose && codeLike(text);
      const x = c ? sentence(m, text, sentences.length) : proseSentence(m, text, sentences.length);
      x.template = template;
      if (listed && pieces.length === 1 && !c) x.item = true;
      sentences.push(x);
    }
  }
  for (const x of sentences) x.of = sentences.length;
  const out = { generation: vocabGeneration(), stampAt: stamp.at, sentences };
  memo.pieces = out;
  return out;
}

/** Reads a message's sentences ahead of compaction (see `prepareMessage`); returns them, for the
 * questions asked of each sentence alone to be answered ahead too (sentence-memo.ts). */
export function prepareSentences(m: ChatMessage): readonly Sentence[] {
  return piecesOf(m).sentences;
}

/** A traceback's header or one of its frames. */
const TRACEBACK_LINE = /^\s*(?:Traceback \(most recent call last\):|File "[^"]*", line \d+)/;
/** "3. " before a capitalised word: a list's number (the block writes its own bullets). */
const INLINE_NUMBER = /^\d{1,2}\.\s+(?=["'“*_([]*\p{Lu})/u;
const LIST_MARK = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/;
/** Blockquote (and callout) markers, nested or not: "> text", "> > text". */
const QUOTE_MARK = /^\s*(?:>\s?)+/;

/**
 * Splits messages into sentences. Tool results keep only their prose-like lines (a note's text,
 * an error) — listings and code dumps are not facts; fenced code in chat messages is marked so the
 * ranking can skip it. The sentences are the cached objects themselves, placed in this
 * conversation (`message`, `at`) by this call: use one call's array before the next call.
 */
export function sentencesOf(messages: readonly ChatMessage[]): Sentence[] {
  // The one safe point to clear a full word table: no id of this compaction has been taken yet.
  resetVocabIfFull();
  const out: Sentence[] = [];
  // Messages without a time take the last date stamp written in the conversation (an exported
  // chat's session header), so relative dates in them can still be resolved.
  let stampAt = 0;
  for (let message = 0; message < messages.length; message++) {
    const m = messages[message] as ChatMessage;
    const p = piecesOf(m);
    if (p.stampAt) stampAt = p.stampAt;
    const own = Number.isFinite(m.createdAt) && m.createdAt > 0 ? m.createdAt : 0;
    const at = own || stampAt;
    for (const s of p.sentences) {
      s.message = message;
      s.at = at;
      out.push(s);
    }
  }
  return out;
}
