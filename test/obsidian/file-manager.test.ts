// @vitest-environment jsdom
// FileManager.renameFile moves the note and updates the links to it, as Obsidian does.
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from './index';
import { createTestApp, destroyTestApp } from './testing';

let app: App | null = null;
afterEach(async () => {
  if (app) await destroyTestApp(app);
  app = null;
});

describe('FileManager.renameFile', () => {
  it('updates wikilinks (subpath, alias, embeds) and markdown links in other notes; leaves other links alone', async () => {
    app = createTestApp({
      files: {
        'Chats/Plan.md': 'plan [[Plan]]',
        'Notes/A.md': 'See [[Plan]], [[Plan#Goals|the goals]] and ![[Plan]]; also [[Other]] and [x](Chats/Plan.md).\n',
        'Notes/Other.md': 'no link to it',
      },
    });
    const file = app.vault.getFileByPath('Chats/Plan.md');
    if (!file) throw new Error('no file');
    await app.vault.createFolder('Archive');
    await app.fileManager.renameFile(file, 'Archive/2026 Plan.md');
    expect(app.vault.getFileByPath('Archive/2026 Plan.md')).toBe(file);
    expect(await app.vault.adapter.read('Notes/A.md')).toBe('See [[2026 Plan]], [[2026 Plan#Goals|the goals]] and ![[2026 Plan]]; also [[Other]] and [x](Archive/2026%20Plan.md).\n');
    // A note linking to itself moves with its link updated.
    expect(await app.vault.adapter.read('Archive/2026 Plan.md')).toBe('plan [[2026 Plan]]');
    expect(await app.vault.adapter.read('Notes/Other.md')).toBe('no link to it');
  });
});
