// The reporter's story in an agent run's task ("I also deleted my venv …") is no key fact in work
// through a shell: readers took it for the task said again beside the Goal. What the reporter says
// of the bug, a change they ask for and why it happens stay. Hand-written runs.
import { describe, expect, it } from 'vitest';
import { compacted, run, type Step } from './agent-run';

const TASK = [
  'Invoice totals drop the discount of the second line.',
  'I am upgrading our shop to the new billing release.',
  'I also reinstalled every package twice without any effect.',
  'Hope these notes help you.',
  'The `total()` function reads only the first line of the order.',
  "I'd suggest to add a loop over every line and document it for other developers.",
  'I lose money on every order with two lines because the discount goes missing.',
].join(' ');

const STEPS: Step[] = [
  ['The `total` function multiplies the first line only.', 'cat billing/total.py', 'def total(lines):\n    return lines[0][0] * lines[0][1]'],
  ['The discount table is read once per order.', 'cat billing/discounts.py', 'def discount(order):\n    return TABLE[order.kind]'],
];

const factsOf = (block: string): string => block.slice(block.indexOf('Key facts:'), block.indexOf('Left off'));

describe("the reporter's story in an agent run's task", () => {
  it('is no key fact in work through a shell; the bug, the change asked for and its reason stay', () => {
    const facts = factsOf(compacted(run(TASK, STEPS), 2000).block);
    expect(facts).not.toContain('reinstalled every package');
    expect(facts).not.toContain('Hope these notes help you.');
    expect(facts).not.toContain('I am upgrading our shop');
    expect(facts).toContain('reads only the first line of the order');
    expect(facts).toContain("I'd suggest to add a loop over every line");
    expect(facts).toContain('because the discount goes missing');
  });

  it("stays in the plugin's note-tool loops: there the user's own words are theirs", () => {
    const steps: Step[] = [['', { name: 'search_vault', args: { query: 'garden plan' } }, 'Projects/Garden.md\n  …beds…']];
    const chat = run('I am planting tomatoes and basil this spring in my two raised beds. Which seeds do I still need to order?', steps);
    expect(compacted(chat, 2000).block).toContain('I am planting tomatoes and basil this spring in my two raised beds.');
  });
});
