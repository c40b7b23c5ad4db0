// @vitest-environment jsdom
// The vault tools against the in-memory vault, through the same ToolVault main.ts uses.
import { afterEach, describe, expect, it } from 'vitest';
import { guardPath } from '../../src/chat/tools/path-guard';
import { VaultTools, type WriteRequest } from '../../src/chat/tools/vault-tools';
import { toolVault } from '../../src/ui/obsidian-vault';
import type { App } from '../obsidian/index';
import { normalizePath } from '../obsidian/index';
import { createTestApp, destroyTestApp, vaultSnapshot } from '../obsidian/testing';

let app: App;
afterEach(async () => {
  await destroyTestApp(app);
});

const files = {
  'Projects/Garden.md': '# Garden\nThe raised beds need compost in spring. Tomatoes go in the south bed.',
  'Projects/Work.md': '# Work\nQuarterly report due Friday.',
  'Daily/2026-11-22.md': 'Bought compost today.',
  'Inbox.md': 'Nothing here.',
};

const setup = (decide: (r: WriteRequest) => boolean = () => false): { tools: VaultTools; asked: WriteRequest[] } => {
  app = createTestApp({ files });
  const asked: WriteRequest[] = [];
  const tools = new VaultTools(toolVault(app as never), (request) => {
    asked.push(request);
    return Promise.resolve(decide(request));
  });
  return { tools, asked };
};

const call = (name: string, args: unknown) => ({ id: 'c1', name, arguments: JSON.stringify(args) });

describe('the vault tools', () => {
  it('read a note, search with snippets, list a folder', async () => {
    const { tools } = setup();
    expect(await tools.run(call('read_note', { path: 'Projects/Garden.md' }))).toEqual({ content: files['Projects/Garden.md'] });
    expect(await tools.run(call('read_note', { path: 'Projects/Garden' }))).toEqual({ content: files['Projects/Garden.md'] });
    expect(await tools.run(call('read_note', { path: 'Nope.md' }))).toMatchObject({ isError: true });

    const search = await tools.run(call('search_vault', { query: 'compost' }));
    expect(search.isError).toBeUndefined();
    const lines = search.content.split('\n');
    expect(lines.filter((l) => !l.startsWith(' ')).sort()).toEqual(['Daily/2026-11-22.md', 'Projects/Garden.md']);
    expect(search.content).toContain('raised beds need compost in spring');
    expect((await tools.run(call('search_vault', { query: 'zucchini' }))).content).toMatch(/No notes match/);

    expect((await tools.run(call('list_folder', { path: '/' }))).content.split('\n')).toEqual(['Daily/', 'Projects/', 'Inbox.md']);
    expect((await tools.run(call('list_folder', { path: 'Projects' }))).content.split('\n')).toEqual(['Projects/Garden.md', 'Projects/Work.md']);
  });

  it('search_vault ranks by relevance: a natural question finds the note without every word, the titled note first', async () => {
    app = createTestApp({
      files: {
        'Research/Odour cues.md': '# Odour cues\nStudies found that odour cues replayed during slow-wave sleep strengthen memory.',
        'Sleep.md': '# Sleep\nA note on sleep hygiene and naps.',
        'Cooking.md': 'Studies of bread.',
      },
    });
    const tools = new VaultTools(toolVault(app as never), () => Promise.resolve(false));
    const result = await tools.run(call('search_vault', { query: 'studies on odour cues during slow-wave sleep in humans' }));
    const paths = result.content.split('\n').filter((l) => !l.startsWith(' '));
    expect(paths[0]).toBe('Research/Odour cues.md');
    expect(paths).toContain('Sleep.md');
    expect(result.content).toContain('odour cues replayed');
    // A quoted phrase keeps only the notes holding it; an empty result says what was searched.
    expect((await tools.run(call('search_vault', { query: '"sleep hygiene"' }))).content.split('\n')[0]).toBe('Sleep.md');
    expect((await tools.run(call('search_vault', { query: 'zucchini' }))).content).toBe('No notes match "zucchini" (searched the titles, headings and text of 3 notes).');
  });

  it('refuses ../, absolute and config-folder paths', async () => {
    const { tools, asked } = setup(() => true);
    for (const path of ['../secret.md', 'Projects/../../x.md', '/etc/passwd', 'C:\\\\Windows\\\\win.ini', '.obsidian/app.json', '.obsidian/plugins/compact-chat/data.json', '.trash/x.md', 'file:///etc/passwd']) {
      for (const name of ['read_note', 'create_note', 'append_to_note', 'list_folder']) {
        const result = await tools.run(call(name, { path, content: 'x' }));
        expect(result.isError, `${name} ${path}`).toBe(true);
      }
    }
    expect(asked).toEqual([]);
    const ctx = { configDir: '.obsidian', normalizePath };
    expect(guardPath('Notes//a.md', ctx)).toEqual({ ok: true, path: 'Notes/a.md' });
    expect(guardPath('..', ctx).ok).toBe(false);
    expect(guardPath('.OBSIDIAN/x', ctx).ok).toBe(false);
  });

  it('a write tool does nothing until approved, then exactly what the modal showed', async () => {
    let approve = false;
    const { tools, asked } = setup(() => approve);
    const before = vaultSnapshot(app);
    const refused = await tools.run(call('create_note', { path: 'Ideas/New', content: '# Idea\nGrow **beans**.' }));
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content).toMatch(/declined/);
    expect(vaultSnapshot(app)).toEqual(before);
    expect(asked).toEqual([{ tool: 'create_note', path: 'Ideas/New.md', text: '# Idea\nGrow **beans**.' }]);

    approve = true;
    expect((await tools.run(call('create_note', { path: 'Ideas/New', content: '# Idea\nGrow **beans**.' }))).content).toMatch(/Created/);
    expect(app.vault.adapter.peek('Ideas/New.md')).toBe(asked[1]?.text);

    const appended = await tools.run(call('append_to_note', { path: 'Inbox.md', content: '\n- call the gardener' }));
    expect(appended.isError).toBeUndefined();
    expect(asked[2]).toEqual({ tool: 'append_to_note', path: 'Inbox.md', text: '\n- call the gardener' });
    expect(app.vault.adapter.peek('Inbox.md')).toBe(`Nothing here.${asked[2]?.text ?? ''}`);

    // Existing note: create refuses without asking.
    expect(await tools.run(call('create_note', { path: 'Inbox.md', content: 'x' }))).toMatchObject({ isError: true });
    expect(asked).toHaveLength(3);
    expect(await tools.run({ id: 'c9', name: 'read_note', arguments: '{broken' })).toMatchObject({ isError: true });
  });
});
