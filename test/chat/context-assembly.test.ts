// Context assembly on its own: the system prompt's parts (settings prompt, block, restored notes,
// active note, mentioned notes), what no compaction can shrink, and the notes re-read after a round.
import { describe, expect, it } from 'vitest';
import { ContextAssembly } from '../../src/chat/context-assembly';
import { DEFAULT_SETTINGS } from '../../src/chat/settings';
import { MapNoteSource } from '../../src/chat/vault-access';
import { REQUEST_OVERHEAD_TOKENS, estimateSystemPromptTokens } from '../../src/core/message-tokens';
import type { CompactionRecord } from '../../src/core/record';
import { estimateTokens } from '../../src/core/tokens';

const notes = (): MapNoteSource => new MapNoteSource(new Map([['Garden.md', 'Beds: three.'], ['Plan.md', 'Ship on Friday.'], ['Active.md', 'The open note.']]));
const settings = { ...DEFAULT_SETTINGS, systemPrompt: ' Be brief. ', model: 'llama3.1:8b' };

describe('context assembly', () => {
  it('composes the settings prompt, the active note and the mentioned notes of what is sent', async () => {
    const source = notes();
    source.active = 'Active.md';
    const context = new ContextAssembly(source);
    const entries = [
      { id: 'u1', mentions: ['Garden.md'] },
      { id: 'a1' },
      { id: 'u2', mentions: ['Plan.md', 'Active.md'] },
    ];
    await context.refresh({ ...settings, includeActiveNote: true }, entries, new Set(['u2']));
    const prompt = context.systemPrompt();
    expect(prompt.startsWith('Be brief.')).toBe(true);
    expect(prompt).toContain('The open note.');
    // Only what is sent mentions count, and the active note is not attached twice.
    expect(prompt).toContain('Ship on Friday.');
    expect(prompt).not.toContain('Beds: three.');
    expect(prompt.match(/The open note\./g)).toHaveLength(1);
  });

  it('cuts the attached notes to a quarter of a small window, whatever their budgets', async () => {
    const source = new MapNoteSource(new Map([['Long.md', 'A line of the long note. '.repeat(800)]]));
    source.active = 'Long.md';
    const context = new ContextAssembly(source);
    const small = { ...settings, includeActiveNote: true, activeNoteBudget: 4000, contextWindowOverride: 2048 };
    await context.refresh(small, [], new Set());
    // The body within the budget, plus the wrapper and its cut marker (and a token of rounding at each seam).
    const wrapper = estimateTokens('<active_note path="Long.md">\n\n[… truncated]\n</active_note>', 'llama3.1:8b');
    expect(context.partTokens('llama3.1:8b').activeNote).toBeLessThanOrEqual(512 + wrapper + 2);
    expect(context.systemPrompt()).toContain('[… truncated]');
    await context.refresh({ ...small, contextWindowOverride: 100_000 }, [], new Set());
    expect(context.partTokens('llama3.1:8b').activeNote).toBeGreaterThan(3000);
  });

  it('counts the fixed parts without the block and the restored notes, and without mentions when asked', async () => {
    const context = new ContextAssembly(notes());
    await context.refresh(settings, [{ id: 'u1', mentions: ['Plan.md'] }], new Set(['u1']));
    const withMentions = context.fixedTokens('llama3.1:8b', 40);
    context.setRound('<previous_context>\nGoal: ship.\n</previous_context>', { notes: [], block: '<restored_notes>x</restored_notes>', tokens: 5 });
    expect(context.fixedTokens('llama3.1:8b', 40)).toBe(withMentions);
    const without = context.fixedTokens('llama3.1:8b', 40, { mentioned: false });
    expect(without).toBe(REQUEST_OVERHEAD_TOKENS + 40 + estimateSystemPromptTokens('Be brief.', 'llama3.1:8b'));
    expect(withMentions).toBeGreaterThan(without);
    expect(context.systemPrompt()).toContain('<previous_context>');
    context.clear();
    expect(context.systemPrompt()).toBe('Be brief.');
  });

  it('re-reads the notes a round removed within its budget, and none with no room', async () => {
    const context = new ContextAssembly(notes());
    const removed = [{ id: 'm1', createdAt: 0, role: 'user' as const, content: 'See [[Garden]] and [[Plan]].' }];
    const record = { filesRead: [] } as unknown as CompactionRecord;
    const restored = await context.restoreAfter(settings, removed, record, 500);
    expect(restored.notes.map((n) => n.path).sort()).toEqual(['Garden.md', 'Plan.md']);
    expect(restored.tokens).toBeLessThanOrEqual(500);
    expect((await context.restoreAfter(settings, removed, record, 0)).notes).toEqual([]);
  });
});
