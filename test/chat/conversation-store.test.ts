// @vitest-environment jsdom
// The conversation store over the in-memory vault (through the same adapter main.ts uses):
// atomic saves, crash recovery, corrupt notes left alone, conflicts, the 5 MB warning, history,
// and telling its own saves from changes made elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import type { SavedConversation, SavedItem } from '../../src/chat/conversation-format';
import { parseConversation, serializeConversation } from '../../src/chat/conversation-format';
import { ConversationStore } from '../../src/chat/conversation-store';
import { tmpPath } from '../../src/chat/note-paths';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp, failNextWrite, vaultSnapshot } from '../obsidian/testing';
import { saveKept } from './helpers/save-kept';

let app: App;
let warnings: string[];
afterEach(async () => {
  await destroyTestApp(app);
});

const setup = (files: Record<string, string> = {}): ConversationStore => {
  app = createTestApp({ files });
  warnings = [];
  return new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: (m) => warnings.push(m) });
};

const user = (id: string, content: string): SavedItem => ({ kind: 'message', message: { id, createdAt: 1_700_000_000_000, role: 'user', content } });
const conv = (items: SavedItem[], title = 'Garden plan'): SavedConversation => ({ id: 'c1', title, model: 'llama3.1:8b', created: 1_700_000_000_000, updated: 1_700_000_000_000, items });

describe('the conversation store', () => {
  it('creates the note in the folder named after the title, then replaces it in place', async () => {
    const store = setup();
    expect(await saveKept(store, conv([user('u1', 'Hello')]))).toEqual({ kind: 'saved', path: 'Compact Chat/Garden plan.md' });
    const file = app.vault.getFileByPath('Compact Chat/Garden plan.md');
    expect(file).not.toBeNull();
    await saveKept(store, conv([user('u1', 'Hello'), user('u2', 'Again')]));
    // Same file object (open tabs and links keep working), new text, no temporary file left.
    expect(app.vault.getFileByPath('Compact Chat/Garden plan.md')).toBe(file);
    const loaded = await store.load('Compact Chat/Garden plan.md');
    expect(loaded.ok && loaded.conversation.items).toHaveLength(2);
    expect(Object.keys(vaultSnapshot(app)).filter((p) => p.endsWith('.tmp'))).toEqual([]);
  });

  it('a crash between the temporary write and the replace: the newer save is recovered from the temporary file', async () => {
    const store = setup();
    await saveKept(store, conv([user('u1', 'Old version')]));
    const path = 'Compact Chat/Garden plan.md';
    const old = app.vault.adapter.peek(path);
    // An edited message: the note is rewritten (temporary file, then replace). The replace fails
    // outright (the process died before it): the note is untouched.
    failNextWrite(app, path);
    expect(await saveKept(store, conv([user('u1', 'Edited version'), user('u2', 'New')]))).toMatchObject({ kind: 'error' });
    expect(app.vault.adapter.peek(path)).toBe(old);
    expect(app.vault.adapter.peek(tmpPath(path))).not.toBeNull();
    const fresh = new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: () => undefined });
    const loaded = await fresh.load(path);
    // The temporary file is compared with the note, not deleted unread: it is the newer save.
    expect(loaded).toMatchObject({ ok: true, recovered: true });
    expect(loaded.ok && loaded.conversation.items.map((i) => i.kind === 'message' && i.message.content)).toEqual(['Edited version', 'New']);
    expect(app.vault.adapter.peek(tmpPath(path))).toBeNull();
  });

  it('a crash in the middle of the replace is recovered from the temporary file', async () => {
    const store = setup();
    await saveKept(store, conv([user('u1', 'Old version')]));
    const path = 'Compact Chat/Garden plan.md';
    const next = conv([user('u1', 'Edited version'), user('u2', 'New '.repeat(50))]);
    failNextWrite(app, path, { torn: true });
    await saveKept(store, next);
    // The first half of the new text: it still reads (blocks end with their own end lines), with a torn end.
    const half = parseConversation(app.vault.adapter.peek(path) ?? '');
    expect(half.ok && half.tail).toBeTruthy();
    const fresh = new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: () => undefined });
    const loaded = await fresh.load(path);
    expect(loaded).toMatchObject({ ok: true, recovered: true });
    expect(loaded.ok && loaded.conversation).toEqual(next);
    expect(app.vault.adapter.peek(path)).toBe(serializeConversation(next));
  });

  it('reports a corrupt note with its line and never writes it', async () => {
    const good = serializeConversation(conv([user('u1', 'Hello'), user('u2', 'World')]));
    const corrupt = good.replace('"id":"u2"', '"id":u2');
    const store = setup({ 'Compact Chat/Broken.md': corrupt });
    const loaded = await store.load('Compact Chat/Broken.md');
    expect(loaded).toMatchObject({ ok: false, path: 'Compact Chat/Broken.md' });
    if (!loaded.ok) {
      expect(loaded.line).toBeGreaterThan(1);
      expect(loaded.error).toMatch(/not a JSON object/);
      expect(loaded.partial?.items).toHaveLength(1);
    }
    expect(store.isReadOnly('Compact Chat/Broken.md')).toBe(true);
    expect(await saveKept(store, conv([user('u1', 'Hello')]), 'Compact Chat/Broken.md')).toEqual({ kind: 'read-only', path: 'Compact Chat/Broken.md' });
    expect(app.vault.adapter.peek('Compact Chat/Broken.md')).toBe(corrupt);
  });

  it('does not overwrite a note changed elsewhere since it was read', async () => {
    const store = setup();
    await saveKept(store, conv([user('u1', 'Hello')]));
    const path = 'Compact Chat/Garden plan.md';
    const file = app.vault.getFileByPath(path);
    if (!file) throw new Error('no note');
    const theirs = (app.vault.adapter.peek(path) ?? '').replace('Hello', 'Hello from my phone');
    await app.vault.modify(file, theirs);
    expect(await saveKept(store, conv([user('u1', 'Hello'), user('u2', 'Mine')]))).toEqual({ kind: 'conflict', path });
    expect(app.vault.adapter.peek(path)).toBe(theirs);
  });

  it('warns once when a note passes Obsidian Sync\'s 5 MB limit', async () => {
    const store = setup();
    const big = conv([user('u1', 'x'.repeat(5 * 1024 * 1024))]);
    await saveKept(store, big);
    await saveKept(store, { ...big, items: [...big.items, user('u2', 'more')] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/5 MB/);
  });

  it('lists, searches by content, renames and deletes', async () => {
    const store = setup({ 'Compact Chat/Not a chat.md': '# Just a note' });
    await saveKept(store, conv([user('u1', 'Tomatoes need sun')], 'Vegetables'));
    await saveKept(store, { ...conv([user('u1', 'Quarterly report')], 'Work'), id: 'c2', updated: 1_800_000_000_000 });
    expect((await store.list()).map((i) => i.title)).toEqual(['Work', 'Vegetables']);
    expect((await store.search('tomatoes SUN')).map((i) => i.id)).toEqual(['c1']);
    expect((await store.search('work')).map((i) => i.id)).toEqual(['c2']);
    expect(await store.renameNote('Compact Chat/Vegetables.md', 'Garden: "veg"')).toBe('Compact Chat/Garden veg.md');
    expect(app.vault.getFileByPath('Compact Chat/Garden veg.md')).not.toBeNull();
    await store.delete('Compact Chat/Work.md');
    expect(app.vault.getFileByPath('Compact Chat/Work.md')).toBeNull();
    expect((await store.list()).map((i) => i.id)).toEqual(['c1']);
  });

  it('tells its own saves (temporary file, then replace) from a hand edit', async () => {
    const store = setup();
    const path = 'Compact Chat/Garden plan.md';
    await saveKept(store, conv([user('u1', 'Hello')]));
    const seen: string[] = [];
    const owner = new Component();
    owner.load();
    new ConversationStore(conversationVault(app as never, owner), { folder: () => 'Compact Chat', warn: () => undefined }).onNoteModified((p) => seen.push(p));
    // The second save goes through the temporary file and vault.process: the note's modify event
    // fires, and the text on disk is the one this store wrote.
    await saveKept(store, conv([user('u1', 'Hello'), user('u2', 'Again')]));
    expect(seen).toEqual([path]);
    expect(await store.changedOnDisk(path)).toBe(false);
    const file = app.vault.getFileByPath(path);
    if (!file) throw new Error('no note');
    await app.vault.modify(file, (app.vault.adapter.peek(path) ?? '').replace('Again', 'Again, by hand'));
    expect(seen).toEqual([path, path]);
    expect(await store.changedOnDisk(path)).toBe(true);
    // Once read, the edit is what the store knows: a save over it is no conflict.
    await store.load(path);
    expect(await store.changedOnDisk(path)).toBe(false);
    owner.unload();
    await app.vault.modify(file, 'gone');
    expect(seen).toHaveLength(2);
  });

  it('a note that did not parse and was fixed by hand since is writable again', async () => {
    const good = serializeConversation(conv([user('u1', 'Hello')]));
    const store = setup({ 'Compact Chat/Garden plan.md': good.replace('"id":"u1"', '"id":u1') });
    expect(await store.load('Compact Chat/Garden plan.md')).toMatchObject({ ok: false });
    const file = app.vault.getFileByPath('Compact Chat/Garden plan.md');
    if (!file) throw new Error('no note');
    await app.vault.modify(file, good);
    expect(await store.load('Compact Chat/Garden plan.md')).toMatchObject({ ok: true });
    expect(store.isReadOnly('Compact Chat/Garden plan.md')).toBe(false);
    expect(await saveKept(store, conv([user('u1', 'Hello'), user('u2', 'Fixed')]), 'Compact Chat/Garden plan.md')).toEqual({ kind: 'saved', path: 'Compact Chat/Garden plan.md' });
  });
});
