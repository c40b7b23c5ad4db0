// Which of an agent's sentences read as a clause on their own (agent-lists.ts): the test a list item
// or a short line of prose must pass to be a key fact of an agent run.
import { describe, expect, it } from 'vitest';
import { hasClause } from '../../src/core/agent-lists';

describe('hasClause', () => {
  it('finds a clause by its verb, an auxiliary, a negation or a pronoun contraction', () => {
    for (const text of ['The exporter drops every row whose total is negative.', 'Nothing gets added to `self.rows`.', "I see that `build()` doesn't pass any `sort` argument.", "It's only used in the exporter.", 'We skipped the header row.'])
      expect(hasClause(text), text).toBe(true);
  });

  it('finds none in a noun phrase, its relative clause and bracketed asides aside, nor in a possessive', () => {
    for (const text of ['`HeaderRow` for the invoice (without the `credit` flag initially).', 'Empty lines (converted to blank rows).', 'Binary rows that should be passed through as they are.', "The direction to use when processing the related model's ordering.", 'Line 114 and line 280.'])
      expect(hasClause(text), text).toBe(false);
  });
});
