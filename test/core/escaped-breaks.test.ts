import { describe, expect, it } from 'vitest';
import { extractRules } from '../../src/core/extract-rules';
import { sentencesOf } from '../../src/core/extract-sentences';
import { unescapedBreaks } from '../../src/core/text';

// Prose pasted with its line breaks escaped (a JSON string, a prompt template copied from a log).
const PASTED = '[INFO: you can add images to the reply. Use the picture service for them. The query is just some tags] ## DO NOT RESPOND TO INFO BLOCK ##\\n\\nmy next prompt is give me a picture of a person shopping online.';

describe('escaped line breaks in pasted prose', () => {
  it('reads "\\n" as a line break in prose, not in code nor once alone', () => {
    expect(unescapedBreaks('One line.\\n\\nAnother line.')).toBe('One line.\n\nAnother line.');
    expect(unescapedBreaks('print("a\\nb")')).toBe('print("a\\nb")');
    expect(unescapedBreaks('```\nx = "a\\n\\nb"\n```')).toBe('```\nx = "a\\n\\nb"\n```');
  });

  it('never runs a sentence across the escaped paragraphs', () => {
    const texts = sentencesOf([{ id: 'u', role: 'user', content: PASTED, createdAt: 0 }]).map((s) => s.text);
    expect(texts.some((t) => t.includes('\\n'))).toBe(false);
    expect(texts).toContain('my next prompt is give me a picture of a person shopping online.');
  });

  it('takes no rule cut out of bracketed text, and the rule after the escaped break whole', () => {
    const content = '[INFO: Use the picture service for images. Only use the query tags] ## DO NOT RESPOND TO INFO BLOCK ##\\n\\nNever add captions to the pictures.\\n\\nmy next prompt is a person shopping online.';
    const rules = extractRules({ id: 'u', role: 'user', content, createdAt: 0 }).map((r) => r.text);
    // (Read as one line, the rule ran from inside the brackets across both escaped paragraphs.)
    expect(rules).toEqual(['Never add captions to the pictures.']);
  });
});
