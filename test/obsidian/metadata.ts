// Builds a note's CachedMetadata (links, embeds, headings, tags, frontmatter) from its text, the
// subset Obsidian's indexer provides that plugins commonly read. Code blocks and inline code are
// skipped, as Obsidian does: a `[[link]]` inside backticks is not a link.
import type { CachedMetadata, HeadingCache, LinkCache, Loc, Pos, TagCache } from 'obsidian';
import { getFrontMatterInfo, parseSimpleYaml } from './frontmatter';

const WIKILINK = /(!?)\[\[([^\]\n]+?)\]\]/g;
const MARKDOWN_LINK = /(!?)\[([^\]\n]*)\]\(([^)\s]+)\)/g;
const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const TAG = /(^|\s)(#[\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function loc(line: number, col: number, lineOffset: number): Loc {
  return { line, col, offset: lineOffset + col };
}

function pos(line: number, start: number, end: number, lineOffset: number): Pos {
  return { start: loc(line, start, lineOffset), end: loc(line, end, lineOffset) };
}

function safeDecode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** Blanks inline code spans (keeping offsets) so their contents are not read as links or tags. */
function maskInlineCode(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
}

export function parseMetadata(content: string): CachedMetadata {
  const cache: CachedMetadata = {};
  const links: LinkCache[] = [];
  const embeds: LinkCache[] = [];
  const headings: HeadingCache[] = [];
  const tags: TagCache[] = [];

  const info = getFrontMatterInfo(content);
  let startLine = 0;
  if (info.exists) {
    const frontmatter = parseSimpleYaml(info.frontmatter);
    if (frontmatter) cache.frontmatter = frontmatter;
    const closingLine = content.slice(0, info.to).split('\n').length - 1;
    cache.frontmatterPosition = {
      start: loc(0, 0, 0),
      end: { line: closingLine, col: 3, offset: info.to + 3 },
    };
    startLine = closingLine + 1;
  }

  let fence: string | null = null;
  let lineOffset = 0;
  content.split('\n').forEach((line, lineNo) => {
    const offset = lineOffset;
    lineOffset += line.length + 1;
    if (lineNo < startLine) return;
    const opener = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
      return;
    }
    if (opener) {
      fence = opener;
      return;
    }
    const heading = HEADING.exec(line);
    if (heading?.[1]) {
      headings.push({ heading: heading[2] ?? '', level: heading[1].length, position: pos(lineNo, 0, line.length, offset) });
    }
    const text = maskInlineCode(line);
    for (const m of text.matchAll(WIKILINK)) {
      const [original, bang, inner = ''] = m;
      const bar = inner.indexOf('|');
      const ref: LinkCache = {
        link: bar === -1 ? inner : inner.slice(0, bar),
        original,
        position: pos(lineNo, m.index, m.index + original.length, offset),
      };
      if (bar !== -1) ref.displayText = inner.slice(bar + 1);
      (bang ? embeds : links).push(ref);
    }
    for (const m of text.matchAll(MARKDOWN_LINK)) {
      const [original, bang, label = '', target = ''] = m;
      if (URL_SCHEME.test(target)) continue; // external links are not vault links
      const ref: LinkCache = {
        link: safeDecode(target),
        original,
        displayText: label,
        position: pos(lineNo, m.index, m.index + original.length, offset),
      };
      (bang ? embeds : links).push(ref);
    }
    for (const m of text.matchAll(TAG)) {
      const [, lead = '', tag = ''] = m;
      const start = m.index + lead.length;
      tags.push({ tag, position: pos(lineNo, start, start + tag.length, offset) });
    }
  });

  if (links.length > 0) cache.links = links;
  if (embeds.length > 0) cache.embeds = embeds;
  if (headings.length > 0) cache.headings = headings;
  if (tags.length > 0) cache.tags = tags;
  return cache;
}
