// @vitest-environment jsdom
// Notes that share a conversation id (a sync conflict copy, a note copied by hand) through the store
// alone: listed as themselves in any listing order, the first created the original, each loading as
// itself (issue 31).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/chat/conversation-store';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';

/** A repeatable random sequence for the vault's listing order. */
const seeded = (seed: number): (() => number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

describe('notes sharing a conversation id', () => {
  it('the store marks the same note as the copy in any listing order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 2, max: 4 }), async (seed, copies) => {
        const text = (reply: string): string =>
          `---\nid: "c1"\ntitle: "Plan"\ncreated: 2026-11-01T10:00:00.000Z\nupdated: 2026-11-01T10:00:00.000Z\ncompact-chat: 2\n---\n\n## User\n<!-- compact-chat user {"id":"u1","createdAt":0} -->\n\n${reply}\n\n<!-- compact-chat end -->\n`;
        const files: Record<string, string> = { 'Compact Chat/Plan.md': text('original') };
        for (let i = 1; i < copies; i++) files[`Compact Chat/Plan (conflict ${i}).md`] = text(`copy ${i}`);
        const app = createTestApp({ files });
        try {
          app.vault.shuffleListing(seeded(seed));
          const store = new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: () => undefined });
          const items = await store.list();
          expect(items).toHaveLength(copies);
          expect(items.filter((i) => !i.copyOf).map((i) => i.path)).toEqual(['Compact Chat/Plan.md']);
          expect(items.filter((i) => i.copyOf).every((i) => i.copyOf?.path === 'Compact Chat/Plan.md')).toBe(true);
          expect(await store.findById('c1')).toBe('Compact Chat/Plan.md');
          // Each row's note loads as itself.
          for (const item of items) {
            const loaded = await store.load(item.path);
            const reply = item.path === 'Compact Chat/Plan.md' ? 'original' : `copy ${/\d+/.exec(item.path)?.[0] ?? ''}`;
            expect(loaded.ok && loaded.conversation.items[0]?.kind === 'message' && loaded.conversation.items[0].message.content).toBe(reply);
          }
        } finally {
          await destroyTestApp(app);
        }
      }),
      { numRuns: 15 },
    );
  });
});
