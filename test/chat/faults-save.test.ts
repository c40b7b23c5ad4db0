// @vitest-environment jsdom
// Fault suite, saves: a crash injected after each step of a save (temporary file, replace, clean-up,
// each also torn half-way) and a fresh store loading the note afterwards: the newest complete
// version always loads and no temporary file is deleted unread. Also two stores creating notes
// with one title at once: both notes exist, neither overwrote the other.
import { afterEach, describe, expect, it } from 'vitest';
import { type SavedConversation, serializeConversation } from '../../src/chat/conversation-format';
import { ConversationStore } from '../../src/chat/conversation-store';
import type { ConversationVault } from '../../src/chat/conversation-vault';
import { tmpPath } from '../../src/chat/note-paths';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { saveKept } from './helpers/save-kept';

let app: App;
afterEach(async () => {
  await destroyTestApp(app);
});

const PATH = 'Compact Chat/Garden plan.md';
const conv = (contents: string[], updated: number, id = 'c1'): SavedConversation => ({
  id,
  title: 'Garden plan',
  model: 'm',
  created: 1_700_000_000_000,
  updated,
  items: contents.map((content, i) => ({ kind: 'message', message: { id: `u${i}`, createdAt: 1_700_000_000_000, role: 'user', content } })),
});
const OLD = conv(['Old version'], 1_700_000_001_000);
// The first message edited: a save that rewrites the note (a new message alone is an append: below).
const NEW = conv(['Edited version', 'Newer message'], 1_700_000_002_000);

type Step = 'writing the temporary file' | 'after the temporary file' | 'replacing the note' | 'after the replace' | 'nowhere';

class Crash extends Error {}

/** The vault with the process "dying" at `step`: a torn write where the step is a write. */
function crashing(base: ConversationVault, step: Step): ConversationVault {
  return {
    ...base,
    writeHidden: async (path, text) => {
      if (step === 'writing the temporary file') {
        await base.writeHidden(path, text.slice(0, Math.floor(text.length / 2)));
        throw new Crash();
      }
      await base.writeHidden(path, text);
      if (step === 'after the temporary file') throw new Crash();
    },
    replace: async (path, text, expected) => {
      if (step === 'replacing the note') {
        await base.replace(path, text.slice(0, Math.floor(text.length / 2)), expected);
        throw new Crash();
      }
      return base.replace(path, text, expected);
    },
    removeHidden: async (path) => {
      if (step === 'after the replace') throw new Crash();
      await base.removeHidden(path);
    },
  };
}

const contents = (result: Awaited<ReturnType<ConversationStore['load']>>) => (result.ok ? result.conversation.items.map((i) => (i.kind === 'message' ? i.message.content : '')) : null);

function newStore(vault: ConversationVault): ConversationStore {
  return new ConversationStore(vault, { folder: () => 'Compact Chat', warn: () => undefined });
}

describe('fault suite: a crash at each step of a save', () => {
  const expected: Record<Step, string[]> = {
    'writing the temporary file': ['Old version'],
    'after the temporary file': ['Edited version', 'Newer message'],
    'replacing the note': ['Edited version', 'Newer message'],
    'after the replace': ['Edited version', 'Newer message'],
    nowhere: ['Edited version', 'Newer message'],
  };
  for (const [step, loads] of Object.entries(expected) as [Step, string[]][]) {
    it(`a crash ${step === 'nowhere' ? 'nowhere' : `while ${step}`.replace('while after', 'right after')}: the newest complete version loads`, async () => {
      app = createTestApp();
      const base = conversationVault(app as never, new Component());
      const store = newStore(crashing(base, step));
      expect(await saveKept(store, OLD)).toMatchObject({ kind: 'saved', path: PATH });
      await saveKept(store, NEW).catch(() => undefined);

      const loaded = await newStore(base).load(PATH);
      expect(contents(loaded)).toEqual(loads);
      // Whatever was recovered is on disk as a complete note, and nothing is left to recover.
      expect(app.vault.adapter.peek(PATH)).toBe(serializeConversation(loads.length === 2 ? NEW : OLD));
      expect(app.vault.adapter.peek(tmpPath(PATH))).toBeNull();
    });
  }

  it('a temporary file that is older than the note (a save after it won) is read and left, not loaded', async () => {
    app = createTestApp({ files: { [PATH]: serializeConversation(NEW), [tmpPath(PATH)]: serializeConversation(OLD) } });
    const loaded = await newStore(conversationVault(app as never, new Component())).load(PATH);
    expect(contents(loaded)).toEqual(['Edited version', 'Newer message']);
    expect(app.vault.adapter.peek(tmpPath(PATH))).toBe(serializeConversation(OLD));
  });

  it("another conversation's temporary file is never loaded into this note or deleted", async () => {
    const other = serializeConversation(conv(['Someone else'], 1_800_000_000_000, 'c2'));
    app = createTestApp({ files: { [PATH]: serializeConversation(OLD), [tmpPath(PATH)]: other } });
    const loaded = await newStore(conversationVault(app as never, new Component())).load(PATH);
    expect(contents(loaded)).toEqual(['Old version']);
    expect(app.vault.adapter.peek(tmpPath(PATH))).toBe(other);
  });
});

describe('fault suite: creating notes', () => {
  it("the test runtime's Vault.create throws when the path exists, as Obsidian's does, even when two race", async () => {
    app = createTestApp({ files: { 'a.md': 'x' } });
    await expect(app.vault.create('a.md', 'y')).rejects.toThrow('File already exists.');
    const results = await Promise.allSettled([app.vault.create('b.md', 'one'), app.vault.create('b.md', 'two')]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(app.vault.adapter.peek('a.md')).toBe('x');
  });

  it('two stores creating notes with the same title at once: two notes, neither overwritten', async () => {
    app = createTestApp();
    const vault = conversationVault(app as never, new Component());
    const [a, b] = await Promise.all([saveKept(newStore(vault), conv(['From A'], 1, 'ca')), saveKept(newStore(vault), conv(['From B'], 1, 'cb'))]);
    expect(a?.kind).toBe('saved');
    expect(b?.kind).toBe('saved');
    expect(a?.path).not.toBe(b?.path);
    const texts = [app.vault.adapter.peek(a.path), app.vault.adapter.peek(b.path)];
    expect(texts[0]).toContain('From A');
    expect(texts[1]).toContain('From B');
  });
});
