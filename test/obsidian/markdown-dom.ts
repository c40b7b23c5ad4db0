// A small Markdown → DOM renderer producing the element shapes Obsidian's reading view does
// (internal links, embeds, tags, code blocks with a copy button, task lists). It builds every node
// with createEl or text nodes: nothing is ever parsed as HTML, so `<script>` or any tag in the
// source is shown as the text it is. (Obsidian itself renders a sanitised subset of inline HTML.)
// Not supported: setext headings, callouts (shown as blockquotes), footnotes, math, HTML blocks.
import { parseLinktext } from './path';

export interface LinkContext {
  /** Whether a `[[link]]` path points at no file (Obsidian marks those `is-unresolved`). */
  isUnresolved(linkpath: string): boolean;
}

// A backtick fence's info string cannot contain backticks (```x``` on one line is inline code).
const FENCE_OPEN = /^ {0,3}(`{3,}(?!.*`)|~{3,})[ \t]*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const TASK = /^\[(.)\][ \t]+/;
const TABLE_RULE = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/;
const SAFE_URL = /^(?:https?:|mailto:|obsidian:|app:)/i;
const SAFE_IMAGE = /^(?:https?:|app:|data:image\/)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const TAG = /^#[\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*/u;
const BARE_URL = /^https?:\/\/[^\s<]*[^\s<.,:;"')\]!?]/;
const DELIMITER = /^(\*\*\*|___|\*\*|__|\*|_|~~|==)/;

const isBlank = (line: string): boolean => line.trim() === '';
const indentOf = (line: string): number => /^ */.exec(line)?.[0].length ?? 0;

function startsBlock(line: string): boolean {
  return FENCE_OPEN.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

/** Renders `markdown` as block elements appended to `parent`. */
export function renderMarkdownBlocks(parent: HTMLElement | DocumentFragment, markdown: string, ctx: LinkContext): void {
  renderBlocks(parent, markdown.replace(/\r\n?/g, '\n').split('\n'), ctx);
}

function renderBlocks(parent: HTMLElement | DocumentFragment, lines: string[], ctx: LinkContext): void {
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isBlank(line)) {
      i++;
    } else if (FENCE_OPEN.test(line)) {
      i = renderCodeBlock(parent, lines, i);
    } else if (HEADING.test(line)) {
      const [, hashes = '#', text = ''] = HEADING.exec(line) ?? [];
      const level = Math.min(hashes.length, 6) as 1 | 2 | 3 | 4 | 5 | 6;
      renderInline(parent.createEl(`h${level}`, { attr: { 'data-heading': text } }), text, ctx);
      i++;
    } else if (RULE.test(line)) {
      parent.createEl('hr');
      i++;
    } else if (QUOTE.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i] ?? ''); i++) quoted.push((lines[i] ?? '').replace(QUOTE, ''));
      renderBlocks(parent.createEl('blockquote'), quoted, ctx);
    } else if (LIST_ITEM.test(line)) {
      i = renderList(parent, lines, i, ctx);
    } else if (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '')) {
      i = renderTable(parent, lines, i, ctx);
    } else {
      const paragraph: string[] = [];
      for (; i < lines.length && !isBlank(lines[i] ?? '') && (paragraph.length === 0 || !startsBlock(lines[i] ?? '')); i++) {
        paragraph.push((lines[i] ?? '').trim());
      }
      renderLines(parent.createEl('p'), paragraph, ctx);
    }
  }
}

/** Lines of one paragraph; a single newline is a line break (Obsidian's default, non-strict). */
function renderLines(el: HTMLElement, lines: string[], ctx: LinkContext): void {
  lines.forEach((line, index) => {
    if (index > 0) el.createEl('br');
    renderInline(el, line, ctx);
  });
}

function renderCodeBlock(parent: HTMLElement | DocumentFragment, lines: string[], start: number): number {
  const [, marker = '```', language = ''] = FENCE_OPEN.exec(lines[start] ?? '') ?? [];
  const body: string[] = [];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[i] ?? '')?.[1];
    if (closing && closing[0] === marker[0] && closing.length >= marker.length) {
      i++;
      break;
    }
    body.push(lines[i] ?? '');
  }
  const cls = language ? `language-${language}` : undefined;
  const pre = parent.createEl('pre', { cls });
  pre.createEl('code', { cls, text: body.join('\n') });
  pre.createEl('button', { cls: 'copy-code-button', text: 'Copy' });
  return i;
}

function renderList(parent: HTMLElement | DocumentFragment, lines: string[], start: number, ctx: LinkContext): number {
  const first = LIST_ITEM.exec(lines[start] ?? '');
  const indent = first?.[1]?.length ?? 0;
  const ordered = /\d/.test(first?.[2] ?? '');
  const list = parent.createEl(ordered ? 'ol' : 'ul');
  const startNumber = parseInt(first?.[2] ?? '1', 10);
  if (ordered && startNumber !== 1) list.setAttr('start', startNumber);

  const isSibling = (line: string): boolean => {
    const match = LIST_ITEM.exec(line);
    return !!match && (match[1]?.length ?? 0) === indent && /\d/.test(match[2] ?? '') === ordered;
  };
  let i = start;
  while (i < lines.length) {
    // A blank line between two items keeps them in one (loose) list.
    if (isBlank(lines[i] ?? '') && isSibling(lines[i + 1] ?? '')) i++;
    const item = LIST_ITEM.exec(lines[i] ?? '');
    if (!item || !isSibling(lines[i] ?? '')) break;
    const contentOffset = indent + (item[2]?.length ?? 1) + 1;
    const itemLines = [item[3] ?? ''];
    for (i++; i < lines.length; i++) {
      const next = lines[i] ?? '';
      const nested = LIST_ITEM.exec(next);
      if (isBlank(next)) {
        if (indentOf(lines[i + 1] ?? '') <= indent || isBlank(lines[i + 1] ?? '')) break;
      } else if (nested ? (nested[1]?.length ?? 0) <= indent : indentOf(next) <= indent && startsBlock(next)) {
        break;
      }
      itemLines.push(next.slice(Math.min(indentOf(next), contentOffset)));
    }
    renderListItem(list.createEl('li'), itemLines, ctx);
  }
  return i;
}

function renderListItem(li: HTMLElement, itemLines: string[], ctx: LinkContext): void {
  const task = TASK.exec(itemLines[0] ?? '');
  if (task) {
    const mark = task[1] ?? ' ';
    li.addClass('task-list-item');
    li.setAttr('data-task', mark);
    if (mark !== ' ') li.addClass('is-checked');
    const checkbox = li.createEl('input', { cls: 'task-list-item-checkbox', type: 'checkbox' });
    checkbox.checked = mark !== ' ';
    itemLines[0] = (itemLines[0] ?? '').slice(task[0].length);
  }
  // The item's own text runs until a blank line or a nested block; the rest renders as blocks.
  const textEnd = itemLines.findIndex((line, index) => index > 0 && (isBlank(line) || startsBlock(line)));
  const text = textEnd === -1 ? itemLines : itemLines.slice(0, textEnd);
  renderLines(li, text.map((line) => line.trim()), ctx);
  if (textEnd !== -1) renderBlocks(li, itemLines.slice(textEnd), ctx);
}

/** Splits a table row on `|`, honouring `\|` escapes and optional outer pipes. */
function tableCells(line: string): string[] {
  const text = line.trim();
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '\\' && text.charAt(i + 1) === '|') {
      cell += '|';
      i++;
    } else if (char === '|') {
      cells.push(cell);
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell);
  if (text.startsWith('|')) cells.shift();
  if (text.endsWith('|') && !text.endsWith('\\|')) cells.pop();
  return cells.map((c) => c.trim());
}

function renderTable(parent: HTMLElement | DocumentFragment, lines: string[], start: number, ctx: LinkContext): number {
  const aligns = tableCells(lines[start + 1] ?? '').map((rule) => {
    if (rule.startsWith(':') && rule.endsWith(':')) return 'center';
    if (rule.endsWith(':')) return 'right';
    return rule.startsWith(':') ? 'left' : '';
  });
  const table = parent.createEl('table');
  const addRow = (section: HTMLElement, line: string, tag: 'th' | 'td'): void => {
    const row = section.createEl('tr');
    aligns.forEach((align, index) => {
      const cell = row.createEl(tag);
      if (align) cell.style.setProperty('text-align', align);
      renderInline(cell, tableCells(line)[index] ?? '', ctx);
    });
  };
  addRow(table.createEl('thead'), lines[start] ?? '', 'th');
  const body = table.createEl('tbody');
  let i = start + 2;
  for (; i < lines.length && !isBlank(lines[i] ?? '') && (lines[i] ?? '').includes('|'); i++) addRow(body, lines[i] ?? '', 'td');
  return i;
}

/** `[[note#heading|alias]]` → the alias, else `note > heading`. */
function linkDisplay(linktext: string, alias: string | null): string {
  if (alias !== null) return alias;
  const { path, subpath } = parseLinktext(linktext);
  const parts = subpath.split('#').filter((part) => part.length > 0);
  return [path, ...parts].filter((part) => part.length > 0).join(' > ');
}

function renderInternalLink(parent: HTMLElement, linktext: string, alias: string | null, ctx: LinkContext): void {
  const a = parent.createEl('a', {
    cls: 'internal-link',
    text: linkDisplay(linktext, alias),
    href: linktext,
    attr: { 'data-href': linktext, target: '_blank', rel: 'noopener nofollow' },
  });
  const { path } = parseLinktext(linktext);
  if (path !== '' && ctx.isUnresolved(path)) a.addClass('is-unresolved');
}

function renderEmbed(parent: HTMLElement, linktext: string, alias: string | null): void {
  parent.createSpan({ cls: 'internal-embed', attr: { src: linktext, alt: alias } });
}

function splitAlias(inner: string): [string, string | null] {
  const bar = inner.indexOf('|');
  return bar === -1 ? [inner.trim(), null] : [inner.slice(0, bar).trim(), inner.slice(bar + 1)];
}

function safeDecode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** `[text](url)`: external when it has a safe scheme, internal when it has none, text otherwise. */
function renderLink(parent: HTMLElement, label: string, url: string, ctx: LinkContext, original: string): void {
  if (!HAS_SCHEME.test(url)) {
    const linktext = safeDecode(url);
    renderInternalLink(parent, linktext, label || null, ctx);
  } else if (SAFE_URL.test(url)) {
    const a = parent.createEl('a', { cls: 'external-link', href: url, attr: { target: '_blank', rel: 'noopener nofollow' } });
    renderInline(a, label || url, ctx);
  } else {
    parent.appendText(original);
  }
}

function renderImage(parent: HTMLElement, alt: string, url: string, original: string): void {
  if (!HAS_SCHEME.test(url)) renderEmbed(parent, safeDecode(url), alt || null);
  else if (SAFE_IMAGE.test(url)) parent.createEl('img', { attr: { src: url, alt } });
  else parent.appendText(original);
}

const isWordChar = (char: string | undefined): boolean => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/** Finds where an emphasis run opened at `from` closes, honouring the intraword rule for `_`. */
function findCloser(text: string, from: number, delimiter: string): number {
  const char = delimiter[0] ?? '';
  for (let i = text.indexOf(delimiter, from); i !== -1; i = text.indexOf(delimiter, i + 1)) {
    if (i === from || /\s/.test(text.charAt(i - 1)) || text.charAt(i - 1) === '\\') continue;
    if (text.charAt(i + delimiter.length) === char || (text.charAt(i - 1) === char && delimiter.length < 3)) continue;
    if (char === '_' && isWordChar(text.charAt(i + delimiter.length))) continue;
    return i;
  }
  return -1;
}

function emphasisElement(parent: HTMLElement, delimiter: string): HTMLElement {
  switch (delimiter) {
    case '***':
    case '___':
      return parent.createEl('strong').createEl('em');
    case '**':
    case '__':
      return parent.createEl('strong');
    case '~~':
      return parent.createEl('del');
    case '==':
      return parent.createEl('mark');
    default:
      return parent.createEl('em');
  }
}

/** Inline Markdown into `parent`: code, links, embeds, tags, emphasis; everything else is text. */
function renderInline(parent: HTMLElement, text: string, ctx: LinkContext): void {
  let buffer = '';
  const flush = (): void => {
    if (buffer) parent.appendText(buffer);
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const char = text.charAt(i);
    const previous = i > 0 ? text.charAt(i - 1) : '';

    if (char === '\\' && /^[\\`*_{}[\]()#+\-.!|~=<>]$/.test(text.charAt(i + 1))) {
      buffer += text.charAt(i + 1);
      i += 2;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(rest)?.[0] ?? '`';
      const close = text.indexOf(run, i + run.length);
      if (close === -1) {
        buffer += run;
        i += run.length;
        continue;
      }
      flush();
      const code = text.slice(i + run.length, close);
      parent.createEl('code', { text: /^ .* $/.test(code) ? code.slice(1, -1) : code });
      i = close + run.length;
      continue;
    }
    const wiki = /^(!?)\[\[([^\]\n]+?)\]\]/.exec(rest);
    if (wiki) {
      flush();
      const [linktext, alias] = splitAlias(wiki[2] ?? '');
      if (wiki[1]) renderEmbed(parent, linktext, alias);
      else renderInternalLink(parent, linktext, alias, ctx);
      i += wiki[0].length;
      continue;
    }
    const link = /^(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(rest);
    if (link) {
      flush();
      if (link[1]) renderImage(parent, link[2] ?? '', link[3] ?? '', link[0]);
      else renderLink(parent, link[2] ?? '', link[3] ?? '', ctx, link[0]);
      i += link[0].length;
      continue;
    }
    const autolink = /^<((?:https?|mailto):[^\s>]+)>/.exec(rest);
    const bare = previous === '' || /[\s(]/.test(previous) ? BARE_URL.exec(rest) : null;
    if (autolink ?? bare) {
      flush();
      const url = autolink?.[1] ?? bare?.[0] ?? '';
      parent.createEl('a', { cls: 'external-link', text: url, href: url, attr: { target: '_blank', rel: 'noopener nofollow' } });
      i += (autolink ?? bare)?.[0].length ?? 1;
      continue;
    }
    const tag = char === '#' && (previous === '' || /\s/.test(previous)) ? TAG.exec(rest) : null;
    if (tag) {
      flush();
      parent.createEl('a', { cls: 'tag', text: tag[0], href: tag[0], attr: { target: '_blank', rel: 'noopener nofollow' } });
      i += tag[0].length;
      continue;
    }
    const delimiter = DELIMITER.exec(rest)?.[1];
    if (delimiter && !/\s/.test(text.charAt(i + delimiter.length)) && !(delimiter[0] === '_' && isWordChar(previous))) {
      const close = findCloser(text, i + delimiter.length, delimiter);
      if (close !== -1) {
        flush();
        renderInline(emphasisElement(parent, delimiter), text.slice(i + delimiter.length, close), ctx);
        i = close + delimiter.length;
        continue;
      }
    }
    buffer += delimiter ?? char;
    i += delimiter?.length ?? 1;
  }
  flush();
}
