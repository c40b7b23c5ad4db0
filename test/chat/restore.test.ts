// Choosing and re-reading the notes to restore after a compaction.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages';
import { restoreCandidates, restoreNotes } from '../../src/chat/restore';
import { MapNoteSource } from '../../src/chat/vault-access';

const user = (id: string, content: string): ChatMessage => ({ id, createdAt: 0, role: 'user', content });

describe('restored notes', () => {
  const notes = new MapNoteSource(
    new Map([
      ['Old.md', 'old note'],
      ['Projects/New.md', 'new note'],
      ['Read.md', 'read by a tool'],
      ['Active.md', 'active note'],
    ]),
  );

  it('puts the active note first, then notes mentioned or read by tools, newest first', () => {
    const removed = [
      user('a', 'See [[Old]] and [missing](Nowhere.md).'),
      { id: 'b', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_note', arguments: '{"path":"Read.md"}' }] } as ChatMessage,
      user('c', 'Now [[New|the new one]] and, latest, ![[Old#Heading]].'),
    ];
    const record = { filesRead: [{ path: 'Read.md', sources: ['b'], last: 1 }] };
    expect(restoreCandidates(removed, record, notes, 'Active.md')).toEqual(['Active.md', 'Old.md', 'Projects/New.md', 'Read.md']);
  });

  it('reads the notes fresh and stops at the budget, cutting the last one that fits only in part', async () => {
    const big = new MapNoteSource(new Map([['A.md', 'alpha '.repeat(50)], ['B.md', 'beta '.repeat(400)], ['C.md', 'gamma']]));
    const restored = await restoreNotes(['A.md', 'B.md', 'C.md'], big, 300);
    expect(restored.notes.map((n) => [n.path, n.truncated])).toEqual([
      ['A.md', false],
      ['B.md', true],
    ]);
    expect(restored.tokens).toBeLessThanOrEqual(300);
    expect(restored.block).toContain('<note path="A.md">');
    expect(restored.block).toContain('[… truncated]');
    big.notes.set('A.md', 'changed');
    expect((await restoreNotes(['A.md'], big, 300)).block).toContain('changed');
    expect(await restoreNotes(['A.md'], big, 0)).toEqual({ notes: [], block: '', tokens: 0 });
  });
});
