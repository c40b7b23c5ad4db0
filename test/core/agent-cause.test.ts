import { describe, expect, it } from 'vitest';
import { latestCause, latestPlan } from '../../src/core/agent-cause';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';

const say = (id: string, content: string): ChatMessage => ({ id, role: 'assistant', content, createdAt: 0 });

describe('the cause and the planned fix from an agent’s prose', () => {
  it('takes the latest conclusion, not a hedge, and the sentences after an announcement', () => {
    const sentences = sentencesOf([
      say('a1', 'The issue is that the exporter skips rows whose date is empty.'),
      say('a2', 'Maybe the writer closes the file too early?'),
      say('a3', 'Now I understand the issue. The date parser returns None for an empty cell and the loop treats None as the end of the rows.'),
    ]);
    expect(latestCause(sentences)?.text).toBe('The date parser returns None for an empty cell and the loop treats None as the end of the rows.');
    expect(latestCause(sentences)?.sources).toEqual(['a3']);
    // Without the announcement, the plain conclusion before the hedge.
    expect(latestCause(sentences.filter((s) => s.id !== 'a3'))?.text).toBe('The issue is that the exporter skips rows whose date is empty.');
  });

  it('keeps the "But …" half said right after the cause, and not a "But wait" or one announcing more', () => {
    const cause = 'The issue is that the exporter reads the parent row when it meets a child row.';
    const half = (next: string): string | undefined => latestCause(sentencesOf([say('a1', `${cause} ${next}`)]))?.text;
    expect(half('But the parent row is already negated, so the sign flips twice.')).toBe(`${cause} But the parent row is already negated, so the sign flips twice.`);
    expect(half('But wait, the parent row is read only once.')).toBe(cause);
    expect(half('But the parent row does this too:')).toBe(cause);
    expect(half('But the fix is to skip the parent row.')).toBe(cause);
    // (Not a "But …" of another message: a new message is a new step.)
    expect(latestCause(sentencesOf([say('a1', cause), say('a2', 'But the parent row is already negated, so the sign flips twice.')]))?.text).toBe(cause);
  });

  it('takes the fix the agent settled on only while no source file was edited after it', () => {
    const sentences = sentencesOf([say('a1', 'Looking at the loop again now.'), say('a2', 'The fix should be to write an empty cell when the date is missing, instead of skipping the row.')]);
    expect(latestPlan(sentences, -1)?.text).toBe('The fix should be to write an empty cell when the date is missing, instead of skipping the row.');
    // An edit in the message that said it, or after it: the plan is done, Changed says how.
    expect(latestPlan(sentences, 1)).toBeNull();
  });
});
