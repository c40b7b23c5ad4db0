// A user's own rules (extract-rules.ts): a line is split into sentences only when it holds a word a
// rule opens on or a binding word in capitals. The rules found must be the ones the sentences give.
import { describe, expect, it } from 'vitest';
import { extractRules } from '../../src/core/extract-rules';
import type { ChatMessage } from '../../src/core/messages';

const rules = (content: string): string[] => extractRules({ id: 'u1', createdAt: 1, role: 'user', content } satisfies ChatMessage).map((r) => r.text);

describe("a user's rules", () => {
  it('are found wherever a sentence opens as an instruction or shouts a binding word', () => {
    expect(rules('The garden plan is due in March. Never rename the budget note without asking me.')).toEqual(['Never rename the budget note without asking me.']);
    expect(rules('Keep the headings as they are, the notes MUST stay in Projects.')).toEqual(['Keep the headings as they are, the notes MUST stay in Projects.']);
    // (Tags are read as spaces: "make<i>sure" opens a rule as "make sure" does.)
    expect(rules('Make<i>sure the dates stay in order.')).toEqual(['Make sure the dates stay in order.']);
    expect(rules('Please update the travel note. Priya said the thesis needs 40 more entries.')).toEqual([]);
  });

  it('are never a question, however it opens', () => {
    expect(rules("Companies keep drilling in the Arctic. Don't they care about the future of our planet?")).toEqual([]);
    expect(rules("Don't they care about the coast? Never move the garden note out of Projects.")).toEqual(['Never move the garden note out of Projects.']);
  });
});
