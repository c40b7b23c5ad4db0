// Choosing and re-reading the notes to restore after a compaction.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages';
import { RESTORED_NOTES, attachNotes, restoreCandidates, restoreNotes } from '../../src/chat/restore';
import { MapNoteSource } from '../../src/chat/vault-access';
import { EXACT, FAMILIES, MODEL, freeReferences } from '../core/reference-counts';

afterAll(freeReferences);

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

  // Text the estimator under-counts (CJK, Czech, emoji): the
  // restored notes fill the room a compaction's target leaves, so they must fit it by the model's
  // own count, as the block does.
  it("fits the budget by the model's own count, each note held back by its text's margin", async () => {
    const kinds = [
      '我们预订了湖边的小屋，时间是八月的第二周。你能查一下明天早上的火车是否准时出发吗？',
      'Rezervovali jsme chatu u jezera na druhý týden v srpnu. Mohl bys zkontrolovat, jestli zítřejší vlak odjíždí včas?',
      'Release day 🎉 thanks everyone 🚀 the build is green ✅ and the docs are live 📦',
    ];
    // Many short notes: attached whole, they fill the budget to within a note.
    const texts = Array.from({ length: 60 }, (_, i) => kinds[i % 3] as string);
    const vault = new MapNoteSource(new Map(texts.map((t, i) => [`N${i}.md`, t])));
    const paths = texts.map((_, i) => `N${i}.md`);
    for (const family of FAMILIES) {
      for (const budget of [300, 1000, 2500]) {
        const restored = await restoreNotes(paths, vault, budget, MODEL[family]);
        expect(restored.notes.length).toBeGreaterThan(0);
        expect(EXACT[family](restored.block)).toBeLessThanOrEqual(budget);
      }
    }
    // Not held back for nothing: the notes as mentioned (counted by the estimate alone) fill more.
    const held = await restoreNotes(paths, vault, 1000, MODEL.claude);
    const plain = await attachNotes(paths, vault, 1000, RESTORED_NOTES, MODEL.claude);
    expect(plain.tokens).toBeGreaterThan(held.tokens);
  });
});
