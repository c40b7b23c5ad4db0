// The scanner that says what a message leaves open at its end, checked against a CommonMark parser:
// with its closing line (if any) after the text, the lines that follow are read as themselves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closingLine } from '../../src/chat/markdown-tail';
import { headings, liveLinks, markdownish } from './helpers/markdown';

/** The text as the note has it: then its closing line, a blank line, a comment line, a heading and a link. */
function followed(text: string): string {
  const close = closingLine(text.split('\n'));
  return `${text}\n${close !== null ? `${close}\n` : ''}\n<!-- compact-chat end -->\n\n## After\n\n[[After]]\n`;
}

describe('what a message leaves open at its end', () => {
  it('after any mix of fences, lists, quotes and raw HTML, what follows the message is read as itself', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const doc = followed(text);
        expect(headings(doc).at(-1)).toBe('After');
        expect(liveLinks(doc).at(-1)).toBe('After');
        // The closing line adds no link and hides none of the message's own.
        expect(liveLinks(doc).slice(0, -1)).toEqual(liveLinks(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('closes what is open at the top level, with the same fence or end marker', () => {
    expect(closingLine(['```js', 'const a = 1;'])).toBe('```');
    expect(closingLine(['~~~~~', 'x'])).toBe('~~~~~');
    expect(closingLine(['`````', '```', 'x'])).toBe('`````');
    expect(closingLine(['<pre>', 'x'])).toBe('</pre>');
    expect(closingLine(['<![CDATA[', 'x'])).toBe(']]>');
    // Nothing open, or open only inside a list item or quote (the next unindented line ends those).
    expect(closingLine(['```', 'x', '```'])).toBeNull();
    expect(closingLine(['- item', '  ```', '  code'])).toBeNull();
    expect(closingLine(['> ```', '> code'])).toBeNull();
    expect(closingLine(['    ```', '    indented code'])).toBeNull();
    expect(closingLine(['<!-- open comment'])).toBeNull();
    // A list marker on a line that would lazily continue an item's or a quote's paragraph starts a
    // list of its own (as markdown-it reads it), so a fence under it is in that list.
    expect(closingLine(['  - nested', '2) two', '   ```'])).toBeNull();
    expect(closingLine(['> quote', '2) two', '   ```'])).toBeNull();
    // A setext heading ends its paragraph: the tag line after it starts an HTML block, which holds the fence.
    expect(closingLine(['%%', '===', '<custom-tag>', '```', ' '])).toBeNull();
  });
});
