// @vitest-environment jsdom
// Fault suite, write paths: paths holding bidi controls, zero-width or other invisible characters,
// C1 controls or line separators are refused for writing with a reason that spells them out, and
// the user is never asked to approve a path that does not display as written. Reading a note with
// such a name still works (it exists; nothing is written).
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

const hostile: [string, string][] = [
  ['right-to-left override', 'Notes/\u202Egpj.exe.md'],
  ['left-to-right embedding', 'Notes/\u202Aa.md'],
  ['first-strong isolate', 'Notes/\u2068b\u2069.md'],
  ['right-to-left mark', 'Notes/c\u200F.md'],
  ['Arabic letter mark', 'Notes/d\u061C.md'],
  ['zero-width space', 'Notes/In\u200Bbox.md'],
  ['zero-width joiner', 'Notes/e\u200D.md'],
  ['word joiner', 'Notes/f\u2060.md'],
  ['BOM', '\uFEFFInbox.md'],
  ['soft hyphen', 'In\u00ADbox.md'],
  ['C1 control (NEL)', 'Notes/g\u0085.md'],
  ['line separator', 'Notes/h\u2028.md'],
  ['paragraph separator', 'Notes/i\u2029.md'],
  ['DEL', 'Notes/j\u007F.md'],
  ['interlinear annotation', 'Notes/k\uFFF9.md'],
];

describe('fault suite: hostile write paths', () => {
  const ctx = { configDir: '.obsidian', normalizePath };
  for (const [name, path] of hostile) {
    it(`${name}: refused for create_note and append_to_note, never shown for approval`, async () => {
      app = createTestApp({ files: { 'Inbox.md': 'x', [path.replace(/\u007F/g, '')]: 'y' } });
      const asked: WriteRequest[] = [];
      const tools = new VaultTools(toolVault(app as never), (request) => {
        asked.push(request);
        return Promise.resolve(true);
      });
      const before = vaultSnapshot(app);
      for (const tool of ['create_note', 'append_to_note']) {
        const result = await tools.run({ id: 'c', name: tool, arguments: JSON.stringify({ path, content: 'z' }) });
        expect(result.isError, tool).toBe(true);
        expect(result.content).toMatch(/control characters|invisible or text-direction characters/);
        // The reason spells the characters out instead of letting them act on the display.
        expect(result.content).not.toMatch(/[\u0080-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u007f]/);
      }
      expect(asked).toEqual([]);
      expect(vaultSnapshot(app)).toEqual(before);
      expect(guardPath(path, ctx, { write: true }).ok).toBe(false);
    });
  }

  it('ordinary Unicode paths (accents, CJK, emoji, RTL letters without controls) are still writable', () => {
    for (const path of ['Notes/Café.md', 'ノート/会議.md', 'Ideas/🌱 garden.md', 'ملاحظات/فكرة.md']) expect(guardPath(path, ctx, { write: true })).toMatchObject({ ok: true });
  });

  it('reading a note whose name holds a zero-width character still works', async () => {
    app = createTestApp({ files: { 'In\u200Bbox.md': 'found' } });
    const tools = new VaultTools(toolVault(app as never), () => Promise.resolve(false));
    expect(await tools.run({ id: 'c', name: 'read_note', arguments: JSON.stringify({ path: 'In\u200Bbox.md' }) })).toEqual({ content: 'found' });
  });
});
