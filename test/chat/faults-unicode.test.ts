// @vitest-environment jsdom
// Fault suite, Unicode in saved notes: every kind of line break (LF, CR, CRLF, U+0085, U+2028,
// U+2029), BOMs, lone surrogates, bidi controls and fence-like text in any field, a tool name
// included, round-trip exactly; the note never holds a raw U+0085 / U+2028 / U+2029; a note that
// starts with a BOM loads and its next save goes to the same note (no "… 2.md" fork).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type SavedConversation, type SavedItem, parseConversation, parseConversationHeader, serializeConversation } from '../../src/chat/conversation-format';
import { ConversationStore } from '../../src/chat/conversation-store';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { saveKept } from './helpers/save-kept';

/** Code units and snippets that have broken line-based formats. */
const tricky = fc.constantFrom(
  '\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029', '\uFEFF', '\u000b', '\u000c', '\u0000',
  '\uD83D', '\uDE00', '\uD83D\uDE00', '\u202E', '\u200B', '\u2066', '`', '```', '### User · x', '---', ' · ', '<!-- compact-chat {} -->', '-->', 'é', '漢', 'a', ' ',
);
const text = fc.array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 12 }).map((parts) => parts.join(''));
const nonEmpty = text.filter((s) => s.trim() !== '');

const item: fc.Arbitrary<SavedItem> = fc.oneof(
  fc.record({ id: nonEmpty, content: text, mentions: fc.array(text, { maxLength: 2 }) }).map(
    ({ id, content, mentions }): SavedItem => ({ kind: 'message', message: { id, createdAt: 1, role: 'user', content }, ...(mentions.length ? { mentions } : {}) }),
  ),
  fc.record({ id: nonEmpty, content: text, name: text, args: text, model: text, failure: fc.option(fc.record({ kind: text, message: text }), { nil: undefined }) }).map(
    ({ id, content, name, args, model, failure }): SavedItem => ({
      kind: 'message',
      message: { id, createdAt: 2, role: 'assistant', content, toolCalls: [{ id: `${id}-call`, name, arguments: args }] },
      model,
      ...(failure ? { failure: { ended: 'interrupted' as const, ...failure } } : {}),
    }),
  ),
  fc.record({ id: nonEmpty, content: text, name: text }).map(({ id, content, name }): SavedItem => ({ kind: 'message', message: { id, createdAt: 3, role: 'tool', toolCallId: 'x', name, content } })),
);

const conversation: fc.Arbitrary<SavedConversation> = fc
  .record({ id: nonEmpty, title: text, model: text, items: fc.uniqueArray(item, { maxLength: 6, selector: (i) => (i.kind === 'message' ? i.message.id : '') }) })
  .map((r) => ({ ...r, created: 1_700_000_000_000, updated: 1_700_000_000_000 }));

describe('fault suite: Unicode round-trip of saved notes', () => {
  it('any conversation, every kind of line break in any field, parses back exactly, with or without a BOM', () => {
    fc.assert(
      fc.property(conversation, (c) => {
        const note = serializeConversation(c);
        expect(note).not.toMatch(/[\u0085\u2028\u2029]/);
        for (const variant of [note, `\uFEFF${note}`]) {
          const parsed = parseConversation(variant);
          if (!parsed.ok) throw new Error(`line ${parsed.line}: ${parsed.error}\n${JSON.stringify(variant)}`);
          expect(parsed.conversation).toEqual(c);
          expect(parseConversationHeader(variant)?.id).toBe(c.id);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('a tool name holding U+2028 (the reported case) reloads', () => {
    const c: SavedConversation = { id: 'c', title: 't', model: 'm', created: 0, updated: 0, items: [{ kind: 'message', message: { id: 'r', createdAt: 0, role: 'tool', toolCallId: 'x', name: 'read\u2028note', content: 'ok' } }] };
    expect(parseConversation(serializeConversation(c))).toMatchObject({ ok: true, conversation: c });
  });
});

describe('fault suite: a note that starts with a BOM', () => {
  let app: App;
  afterEach(async () => {
    await destroyTestApp(app);
  });

  it('loads, and the next save replaces that note instead of forking to "… 2.md"', async () => {
    const c: SavedConversation = { id: 'c1', title: 'Garden plan', model: 'm', created: 1, updated: 1, items: [{ kind: 'message', message: { id: 'u1', createdAt: 1, role: 'user', content: 'Hello' } }] };
    const path = 'Compact Chat/Garden plan.md';
    app = createTestApp({ files: { [path]: `\uFEFF${serializeConversation(c)}` } });
    const store = new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: () => undefined });
    expect(await store.load(path)).toMatchObject({ ok: true });
    const next = { ...c, updated: 2, items: [...c.items, { kind: 'message' as const, message: { id: 'u2', createdAt: 2, role: 'user' as const, content: 'Again' } }] };
    expect(await saveKept(store, next, path)).toEqual({ kind: 'saved', path });
    expect(Object.keys(app.vault.adapter.snapshot()).filter((p) => p.startsWith('Compact Chat/'))).toEqual([path]);
  });
});
