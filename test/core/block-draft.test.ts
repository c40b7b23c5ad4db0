import { describe, expect, it } from 'vitest';
import { BlockDraft, editedTextsOf } from '../../src/core/block-draft';
import { blank, line, words } from './render-records';

const draft = (target = 100, edited: string[] = []) => new BlockDraft(target, words, new Set(edited));

describe('block draft', () => {
  it('adds a line under its cap, counting its newline and the heading of a new section', () => {
    const d = draft();
    expect(d.add('decisions', '- Keep the old tag as an alias.', 100)).toBe(true);
    // Eight words (the bullet counts here), a newline, and "Decisions:" (one word and its newline).
    expect(d.used).toBe(8 + 1 + 2);
    expect(d.add('decisions', '- Use British spelling in every summary.', 100)).toBe(true);
    expect(d.used).toBe(11 + 7 + 1);
    expect(d.add('decisions', '- One more decision that does not fit.', 20)).toBe(false);
    expect(d.lines.get('decisions')).toEqual(['- Keep the old tag as an alias.', '- Use British spelling in every summary.']);
  });

  it('never says a line twice: a section line shown already, or one the goal or task lines hold', () => {
    const d = draft();
    d.add('goal', 'Goal: Rename the tag #inbox to #todo across the vault.', 100);
    d.goalText = 'Rename the tag #inbox to #todo across the vault.';
    const used = d.used;
    // (True: nothing to add.)
    expect(d.add('topics', '- Open: Rename the tag #inbox to #todo across the vault.', 100)).toBe(true);
    d.add('decisions', '- Keep the old tag as an alias.', 100);
    expect(d.add('done', '- Keep the old tag as an alias.', 100)).toBe(true);
    d.tasksLower = 'latest request: can you also fix the broken links in the index note?';
    expect(d.add('open', '- Fix the broken links in the index note', 100)).toBe(true);
    expect(d.lines.has('topics')).toBe(false);
    expect(d.lines.has('done')).toBe(false);
    expect(d.lines.has('open')).toBe(false);
    expect(d.used).toBe(used + 8 + 1 + 2);
  });

  it('lets a line the user rewrote past its cap, up to the target', () => {
    const d = draft(30, ['Never touch the Archive folder.']);
    expect(d.add('constraints', '- Never touch the Archive folder.', 0)).toBe(true);
    expect(d.add('constraints', '- Prefer short notes.', 0)).toBe(false);
    expect(editedTextsOf(blank({ goal: line('Fix it.', { edited: true }), decisions: [line('Kept.'), line('Moved.', { edited: true })] }))).toEqual(new Set(['Fix it.', 'Moved.']));
  });

  it('fills a list from where the last fill stopped', () => {
    const d = draft();
    const items = ['- first open task here', '- second open task here', '- third open task here'];
    d.fillList('open', items, () => 9);
    expect(d.lines.get('open')).toEqual(['- first open task here']);
    d.fillList('open', items, () => 100);
    expect(d.lines.get('open')).toEqual(items);
  });

  it('grows an inline line to the most items that fit, counting only what it adds, and takes it out again', () => {
    const d = draft();
    const items = ['a.md', 'b.md', 'c.md', 'd.md'];
    const format = (xs: string[]) => `Files read: ${xs.join(' ')}`;
    d.fillInline('read', items, format, 5);
    expect(d.lines.get('read')).toEqual(['Files read: a.md b.md']);
    expect(d.used).toBe(5);
    d.fillInline('read', items, format, 100);
    expect(d.lines.get('read')).toEqual(['Files read: a.md b.md c.md d.md']);
    expect(d.used).toBe(7);
    d.remove('read');
    expect(d.used).toBe(0);
    expect(d.lines.has('read')).toBe(false);
  });
});
