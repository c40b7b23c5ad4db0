// What a Markdown text leaves open at its end that would swallow the lines after it. A message is
// written into the conversation note as plain Markdown, followed by a blank line and the note's own
// lines (an HTML comment, the next message's heading). If the message ends inside a fenced code
// block at the top level (an unclosed ``` in a reply cut off mid-stream), CommonMark reads the rest
// of the note as code: later links leave the graph and later replies show as source. So the writer
// asks this scanner for a closing line and puts it after the message (the note records it, so the
// reader takes it off again: conversation-blocks.ts).
//
// A line-by-line pass over CommonMark's block structure (spec 0.31, "Appendix: a parsing strategy"):
// block quotes and list items as containers, fenced and indented code, HTML blocks, paragraphs (for
// lazy continuation and which blocks may interrupt them). Only what decides whether a fence or a raw
// HTML block is open at the top level at the end is modelled; inline syntax is not needed.
// A fence or HTML block inside a list item or quote needs no closing line: the blank line and the
// unindented comment after the message end those containers, and the blocks in them with them.

interface Container {
  kind: 'quote' | 'item';
  /** For an item: the columns its content is indented by. */
  indent: number;
}

type Leaf =
  | { kind: 'none' }
  | { kind: 'paragraph' }
  | { kind: 'indented' }
  | { kind: 'fence'; char: string; length: number; indent: number; depth: number }
  | { kind: 'html'; type: number; depth: number; tag: string };

const HTML_ENDS: Record<number, RegExp> = {
  1: /<\/(?:script|pre|style|textarea)>/i,
  2: /-->/,
  3: /\?>/,
  4: />/,
  5: /\]\]>/,
};

const BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const HTML_STARTS: [number, RegExp][] = [
  [1, /^<(?:script|pre|style|textarea)(?:\s|>|$)/i],
  [2, /^<!--/],
  [3, /^<\?/],
  [4, /^<![A-Za-z]/],
  [5, /^<!\[CDATA\[/],
  [6, new RegExp(`^</?(?:${BLOCK_TAGS})(?:\\s|/?>|$)`, 'i')],
  // A complete open or closing tag alone on its line (cannot interrupt a paragraph).
  [7, /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/],
];

/** Leading spaces, with tabs expanded to the next multiple of 4 (CommonMark's tab stops). */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(4 - (out.length % 4));
    else out += ch;
  }
  return out;
}

function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}

const isBlank = (line: string): boolean => /^[ \t]*$/.test(line);
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ATX = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

function fenceOpen(line: string): { char: string; length: number; indent: number } | null {
  const m = FENCE.exec(line);
  if (!m) return null;
  const ticks = m[2] as string;
  if (ticks[0] === '`' && (m[3] as string).includes('`')) return null;
  return { char: ticks[0] as string, length: ticks.length, indent: (m[1] as string).length };
}

function htmlStart(line: string, paragraph: boolean): number | null {
  if (indentOf(line) > 3) return null;
  const rest = line.trimStart();
  for (const [type, re] of HTML_STARTS) if (re.test(rest) && !(type === 7 && paragraph)) return type;
  return null;
}

/** A list item marker at the start of `line`: its content indent, and whether it can interrupt a paragraph. */
function listMarker(line: string): { indent: number; interrupts: boolean } | null {
  const m = /^( {0,3})([-+*]|(\d{1,9})[.)])( *)(.*)$/.exec(line);
  if (!m) return null;
  const spaces = (m[4] as string).length;
  const content = m[5] as string;
  if (spaces === 0 && content !== '') return null;
  if (THEMATIC.test(line)) return null;
  const markerEnd = (m[1] as string).length + (m[2] as string).length;
  const empty = content === '';
  const indent = empty ? markerEnd + 1 : spaces > 4 ? markerEnd + 1 : markerEnd + spaces;
  const ordered = m[3] !== undefined;
  return { indent, interrupts: !empty && (!ordered || m[3] === '1') };
}

/** Whether `line` (after its containers) would start a block other than a paragraph continuation. */
function startsBlock(line: string, paragraph: boolean): boolean {
  if (isBlank(line)) return true;
  if (indentOf(line) >= 4) return false;
  if (THEMATIC.test(line) || ATX.test(line) || fenceOpen(line) || /^ {0,3}>/.test(line)) return true;
  const item = listMarker(line);
  if (item && (!paragraph || item.interrupts)) return true;
  const html = htmlStart(line, paragraph);
  return html !== null && html !== 7;
}

/**
 * The line to write after `lines` so that nothing they open at the top level runs past them: a
 * closing fence (same character, at least as long) or the end of a raw HTML block whose end
 * CommonMark looks for in later lines (`</pre>` …, `?>`, `]]>`); null when nothing is open there.
 * (An HTML comment left open needs nothing: the note's next comment line ends it.)
 */
export function closingLine(lines: readonly string[]): string | null {
  const stack: Container[] = [];
  let leaf: Leaf = { kind: 'none' };
  for (const raw of lines) {
    let rest = expandTabs(raw);
    // 1. Which open containers does the line continue?
    let matched = 0;
    for (const c of stack) {
      if (c.kind === 'quote') {
        const m = /^ {0,3}> ?/.exec(rest);
        if (!m) break;
        rest = rest.slice(m[0].length);
      } else if (isBlank(rest)) {
        rest = '';
      } else if (indentOf(rest) >= c.indent) {
        rest = rest.slice(c.indent);
      } else {
        break;
      }
      matched++;
    }
    if (matched < stack.length) {
      // A paragraph goes on lazily when the line starts nothing else; any other leaf ends with its
      // container. A list marker on a line that would be lazy (outside the quote or item) ends it
      // even when it could not interrupt a paragraph ("2) two", an empty item): so markdown-it reads
      // it, and the closing line must agree with the renderer about where the message's blocks end.
      if (leaf.kind === 'paragraph' && !startsBlock(rest, true) && !listMarker(rest)) continue;
      stack.length = matched;
      if (leaf.kind !== 'none' && (leaf.kind === 'paragraph' || leaf.kind === 'indented' || ('depth' in leaf && leaf.depth > matched))) leaf = { kind: 'none' };
    }
    // 2. Inside code or raw HTML, the line belongs to it unless it ends it.
    if (leaf.kind === 'fence') {
      const close = new RegExp(`^ {0,3}\\${leaf.char}{${leaf.length},}[ \\t]*$`);
      if (close.test(rest)) leaf = { kind: 'none' };
      continue;
    }
    if (leaf.kind === 'html') {
      if (leaf.type >= 6) {
        if (isBlank(rest)) leaf = { kind: 'none' };
      } else if (HTML_ENDS[leaf.type]?.test(rest)) {
        leaf = { kind: 'none' };
      }
      continue;
    }
    if (leaf.kind === 'indented' && (isBlank(rest) || indentOf(rest) >= 4)) continue;
    // 3. New containers.
    for (;;) {
      if (indentOf(rest) >= 4) break;
      const quote = /^ {0,3}> ?/.exec(rest);
      if (quote) {
        stack.push({ kind: 'quote', indent: 0 });
        rest = rest.slice(quote[0].length);
        leaf = { kind: 'none' };
        continue;
      }
      const item = listMarker(rest);
      if (item && (leaf.kind !== 'paragraph' || item.interrupts)) {
        stack.push({ kind: 'item', indent: item.indent });
        rest = rest.length > item.indent ? rest.slice(item.indent) : '';
        leaf = { kind: 'none' };
        continue;
      }
      break;
    }
    // 4. The leaf block this line starts or continues.
    if (isBlank(rest)) {
      leaf = { kind: 'none' };
      continue;
    }
    const paragraph = leaf.kind === 'paragraph';
    if (!paragraph && indentOf(rest) >= 4) {
      leaf = { kind: 'indented' };
      continue;
    }
    const fence = fenceOpen(rest);
    if (fence) {
      leaf = { kind: 'fence', ...fence, depth: stack.length };
      continue;
    }
    const html = htmlStart(rest, paragraph);
    if (html !== null) {
      const ends = html <= 5 && HTML_ENDS[html]?.test(rest.trimStart().slice(html === 2 ? 4 : html === 5 ? 9 : 2));
      const tag = /^<([A-Za-z]+)/.exec(rest.trimStart())?.[1]?.toLowerCase() ?? '';
      leaf = ends ? { kind: 'none' } : { kind: 'html', type: html, depth: stack.length, tag };
      continue;
    }
    // A setext underline turns the paragraph into a heading, which ends it: what follows may start
    // blocks that could not interrupt a paragraph.
    if (ATX.test(rest) || THEMATIC.test(rest) || (paragraph && SETEXT.test(rest))) {
      leaf = { kind: 'none' };
      continue;
    }
    leaf = { kind: 'paragraph' };
  }
  if (stack.length > 0) return null;
  if (leaf.kind === 'fence') return leaf.char.repeat(Math.max(3, leaf.length));
  if (leaf.kind === 'html') {
    if (leaf.type === 1) return `</${leaf.tag}>`;
    if (leaf.type === 3) return '?>';
    if (leaf.type === 5) return ']]>';
  }
  return null;
}
