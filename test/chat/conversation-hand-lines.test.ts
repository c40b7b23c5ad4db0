// @vitest-environment jsdom
// Property (issue 31): any sequence of appends, rewrites, lines a person inserts outside the message
// blocks and renames or moves of the note loads back with every message and every hand line in
// place. Through the real store on the test runtime's vault; a hand edit is picked up by a load, as
// the open conversation does when the note changes on disk.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type SavedConversation, type SavedItem, parseConversation } from '../../src/chat/conversation-format';
import { ConversationStore } from '../../src/chat/conversation-store';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { markdownish, structureLine } from './helpers/markdown';

let app: App | null = null;
afterEach(async () => {
  if (app) await destroyTestApp(app);
  app = null;
});

/** A line a person may write between blocks: anything but the note's own lines and the writer's
 * headings (which are the note's structure, not text). */
const handLine = fc
  .oneof(structureLine, fc.string({ minLength: 1, maxLength: 30 }))
  .filter((l) => !l.includes('\n') && !l.includes('\r') && l.trim() !== '' && !l.startsWith('<!-- compact-chat') && !/^## (User|Assistant|System|Tool result|Compaction)/.test(l));

type Op =
  | { kind: 'append'; role: 'user' | 'assistant'; text: string }
  | { kind: 'edit'; at: number; text: string }
  | { kind: 'title'; title: string }
  | { kind: 'hand'; after: number; line: string }
  | { kind: 'rename'; to: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), role: fc.constantFrom('user' as const, 'assistant' as const), text: markdownish }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: markdownish }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('title' as const), title: fc.constantFrom('Garden', 'Beds', 'Plan B') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('hand' as const), after: fc.nat(), line: handLine }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), to: fc.constantFrom('Compact Chat/Renamed.md', 'Archive/Garden.md', 'Archive/Old/Plan.md', 'Garden at root.md') }) },
);

/** Where, in the note's text, the end line of the `n`th message block ends (-1: after the front matter). */
function afterBlock(text: string, n: number): number {
  if (n < 0) return text.indexOf('\n---\n') + 5;
  let at = 0;
  for (let i = 0; i <= n; i++) at = text.indexOf('\n<!-- compact-chat end', at) + 1;
  return text.indexOf('\n', at) + 1;
}

/** The conversation as a sequence of messages and single hand lines: how lines written next to
 * each other are grouped into one item depends on the blank lines around them, not what is kept. */
function flat(items: SavedItem[]): unknown[] {
  return items.flatMap((item): unknown[] => (item.kind === 'hand' ? item.text.split('\n').filter((l) => l.trim() !== '').map((line) => ({ hand: line })) : [item]));
}

describe('hand lines outside the blocks', () => {
  it('any sequence of appends, rewrites, hand insertions and renames loads back with every message and hand line in place', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        if (app) await destroyTestApp(app);
        app = createTestApp({ files: { 'Archive/Old/.keep.md': 'keep' } });
        const vault = app.vault;
        const store = new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: () => undefined });
        // The store follows renames as the plugin's does.
        store.onNoteRenamed(() => undefined);
        store.onNoteDeleted(() => undefined);
        let model: SavedItem[] = [];
        let title = 'Garden';
        let path: string | null = null;
        let n = 0;
        const messages = (): number => model.filter((i) => i.kind === 'message').length;
        const save = async (): Promise<void> => {
          const c: SavedConversation = { id: 'c1', title, model: 'm', created: 0, updated: ++n, items: model };
          const result = await store.save(c, path);
          if (result.kind !== 'saved') throw new Error(`save: ${JSON.stringify(result)}`);
          path = result.path;
        };
        for (const step of ops) {
          switch (step.kind) {
            case 'append':
              model = [...model, { kind: 'message', message: { id: `m${++n}`, createdAt: n, role: step.role, content: step.text } }];
              await save();
              break;
            case 'edit': {
              const at = model.map((item, i) => (item.kind === 'message' ? i : -1)).filter((i) => i >= 0);
              if (!at.length) break;
              const i = at[step.at % at.length] as number;
              const item = model[i];
              if (item?.kind !== 'message') break;
              model = model.map((x, j) => (j === i ? { ...item, message: { ...item.message, content: step.text } } : x));
              await save();
              break;
            }
            case 'title':
              title = step.title;
              if (path !== null) await save();
              break;
            case 'hand': {
              if (path === null) break;
              // After message k (-1: before the first), as a person would type it in the note.
              const k = (step.after % (messages() + 1)) - 1;
              const file = vault.getFileByPath(path);
              if (!file) throw new Error('no note');
              const text = await vault.read(file);
              const at = afterBlock(text, k);
              await vault.modify(file, `${text.slice(0, at)}${step.line}\n${text.slice(at)}`);
              // Into the model right after message k (before the lines already there).
              const kth = model.filter((x) => x.kind === 'message')[k];
              const pos = k < 0 ? 0 : model.indexOf(kth as SavedItem) + 1;
              const expected = flat([...model.slice(0, pos), { kind: 'hand', text: step.line }, ...model.slice(pos)]);
              const loaded = await store.load(path);
              if (!loaded.ok) throw new Error(`load: ${loaded.error}`);
              expect(flat(loaded.conversation.items)).toEqual(expected);
              // What the conversation holds from now on, as the chat would after loading the edit.
              model = loaded.conversation.items;
              break;
            }
            case 'rename': {
              if (path === null || path === step.to || vault.getFileByPath(step.to)) break;
              const file = vault.getFileByPath(path);
              if (!file) throw new Error('no note');
              const folder = step.to.includes('/') ? step.to.slice(0, step.to.lastIndexOf('/')) : '';
              if (folder && !vault.getFolderByPath(folder)) await vault.createFolder(folder);
              await app.fileManager.renameFile(file, step.to);
              path = step.to;
              break;
            }
          }
          if (path === null) continue;
          const parsed = parseConversation(await vault.adapter.read(path));
          if (!parsed.ok) throw new Error(`line ${parsed.line}: ${parsed.error}`);
          expect(parsed.tail).toBeUndefined();
          expect(flat(parsed.conversation.items)).toEqual(flat(model));
          expect(parsed.conversation.title).toBe(title);
        }
        // One note, wherever it went.
        expect(vault.getMarkdownFiles().filter((f) => f.path !== 'Archive/Old/.keep.md').map((f) => f.path)).toEqual(path === null ? [] : [path]);
      }),
      { numRuns: 100 },
    );
  });
});
