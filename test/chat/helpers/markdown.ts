// Test helpers for Markdown as CommonMark reads it (markdown-it, which follows the spec, with raw
// HTML on as Obsidian has it): which [[links]] a text shows outside code and raw HTML, and lines of
// Markdown that look like structure (fences, lists, quotes, HTML, the note's own comments).
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: true });

/** The [[links]] CommonMark leaves in the text (paragraphs, headings, list items, quotes, tables):
 * not those inside fenced or indented code or raw HTML blocks. Counted, in order. */
export function liveLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const token of md.parse(markdown, {})) {
    if (token.type !== 'inline') continue;
    for (const m of token.content.matchAll(/\[\[([^[\]\n]+)\]\]/g)) links.push(m[1] as string);
  }
  return links;
}

/** The top-level headings CommonMark sees, by their text. */
export function headings(markdown: string): string[] {
  const tokens = md.parse(markdown, {});
  const out: string[] = [];
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open' && token.level === 0) out.push(tokens[i + 1]?.content ?? '');
  });
  return out;
}

/** Lines that look like Markdown structure, and the note's own. */
export const structureLine = fc.constantFrom(
  '```', '````', '`````', '~~~', '~~~~', '```js', '```` md', '  ```', '   ```', '    ```', '\t```', '- ```', '1. ```', '> ```', '>',
  '- item', '  - nested', '   continued', '1. one', '2) two', '10. ten', '* * *', '---', '***', '___', '===',
  '> quote [[Quoted]]', '> [!note] Callout [[In callout]]', '> [!warning]- Folded', '>> deeper',
  '<div>', '</div>', '<pre>', '</pre>', '<script>', '</script>', '<style>', '<textarea>', '<!-- comment', '-->', '<!-- one line -->',
  '<?php', '?>', '<![CDATA[', ']]>', '<!DOCTYPE html>', '<custom-tag>', '<span>inline</span>',
  '# Heading [[In heading]]', '## User · 2026-01-01 10:00', '### Assistant · 2026-01-01 10:00', '## Compaction · round 1 · x',
  '<!-- compact-chat user {"id":"x","createdAt":0} -->', '<!-- compact-chat end -->', '<!-- compact-chat end saved=2026-01-01T00:00:00.000Z -->',
  '\\<!-- compact-chat end -->', '\\\\<!-- compact-chat tool-call -->', '<!-- compact-chat', '<!--compact-chat end -->',
  'id: "front"', 'compact-chat: 9', '', ' ', 'text with [[Link]] and [[Other|alias]]', 'see [[Notes/Deep#Heading]] and `code [[Not live]]`',
  '    indented [[Code link]]', '| a | b |', '|---|---|', '| [[Table link]] | x |', '%%', '$$', 'tab\there', '😀 [[Emoji 😀]]',
);

/** Markdown-ish text: lines of structure and prose, any order. */
export const markdownish = fc.array(structureLine, { maxLength: 14 }).map((lines) => lines.join('\n'));
