// @vitest-environment jsdom
// Conversation notes as notes (format 2, issue #18): message text is plain Markdown whose links
// Obsidian indexes, any text still comes back exactly, a save appends what is new (and rewrites only
// what changed), a torn append is seen and the rest loads, format 1 notes load and are rewritten.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages';
import { type SavedConversation, type SavedItem, type SavedMessage, parseConversation, serializeConversation } from '../../src/chat/conversation-format';
import { ConversationStore } from '../../src/chat/conversation-store';
import { closingLine } from '../../src/chat/markdown-tail';
import { fromPluginNote } from '../../src/cli/formats/plugin';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp, failNextWrite } from '../obsidian/testing';
import { liveLinks, markdownish, structureLine } from './helpers/markdown';
import { saveKept } from './helpers/save-kept';

let app: App | null = null;
afterEach(async () => {
  if (app) await destroyTestApp(app);
  app = null;
});

const PATH = 'Compact Chat/Garden.md';
const T0 = 1_795_000_000_000;

function newStore(): ConversationStore {
  return new ConversationStore(conversationVault(app as never, new Component()), { folder: () => 'Compact Chat', warn: () => undefined });
}

const conv = (items: SavedItem[], updated = T0, title = 'Garden'): SavedConversation => ({ id: 'c1', title, model: 'llama3.1:8b', created: T0, updated, items });
const msg = (id: string, role: 'user' | 'assistant' | 'system', content: string, at = T0): SavedMessage => ({ kind: 'message', message: { id, createdAt: at, role, content } });
const tool = (id: string, content: string): SavedMessage => ({ kind: 'message', message: { id, createdAt: T0, role: 'tool', toolCallId: `call-${id}`, name: 'read_note', content } });

/** Markdown-ish text, sometimes with what a note cannot carry as it is (CR, a lone surrogate). */
const content = fc.oneof({ weight: 6, arbitrary: markdownish }, { weight: 1, arbitrary: fc.tuple(markdownish, fc.constantFrom('\r\n', '\uD800', '\u2028', '\u0000')).map(([t, odd]) => `${t}${odd}`) });

const item: fc.Arbitrary<SavedItem> = fc
  .tuple(fc.constantFrom<'user' | 'assistant' | 'system' | 'tool'>('user', 'assistant', 'assistant', 'user', 'system', 'tool'), content, fc.option(fc.dictionary(fc.constantFrom('starred', 'color', 'futureFlag'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }), { nil: undefined }))
  .map(([role, text, extra]) => {
    const m: SavedMessage = role === 'tool' ? tool('x', text) : msg('x', role, text);
    if (role === 'assistant') m.model = 'llama3.1:8b';
    if (extra && Object.keys(extra).length) m.extra = JSON.parse(JSON.stringify(extra)) as Record<string, unknown>;
    return m;
  });

/** Ids in order (the generator leaves them all 'x'). */
const numbered = (items: SavedItem[]): SavedItem[] => items.map((it, i) => (it.kind === 'message' ? { ...it, message: { ...it.message, id: `m${i}`, createdAt: T0 + i * 1000 } } : it));

describe('format 2: message text as plain Markdown', () => {
  it('any text comes back exactly: links, headings, callouts, fences (unclosed, 4+ backticks), lines like the note\'s own, front matter', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (raw) => {
        const c = conv(numbered(raw));
        const text = serializeConversation(c);
        const parsed = parseConversation(text);
        if (!parsed.ok) throw new Error(`line ${parsed.line}: ${parsed.error}\n${text}`);
        expect(parsed.tail).toBeUndefined();
        expect(parsed.conversation).toEqual(c);
        expect(serializeConversation(parsed.conversation)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it("graph-visible: the note's live [[links]] are exactly those of the user's and assistant's text, none inside a code block", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 10 }), (raw) => {
        const c = conv(numbered(raw));
        const note = serializeConversation(c);
        // Text a note cannot carry as it is (CR, lone surrogates) is kept in an escaped block: not live.
        const odd = ['\r', '\u0000', '\u2028', '\uD800'];
        const prose = c.items.flatMap((i) => (i.kind === 'message' && i.message.role !== 'tool' && !odd.some((ch) => i.message.content.includes(ch)) ? [i.message.content] : []));
        // Every link live in a message is live in the note, in order (none swallowed by a fence an
        // earlier message left open), and the note adds none of its own.
        const noteLinks = liveLinks(note);
        let at = 0;
        for (const link of prose.flatMap(liveLinks)) {
          at = noteLinks.indexOf(link, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at++;
        }
        const written = prose.flatMap((t) => [...t.matchAll(/\[\[([^[\]\n]+)\]\]/g)].map((m) => m[1]));
        for (const link of noteLinks) expect(written).toContain(link);
      }),
      { numRuns: 400 },
    );
  });

  it('a reply with a link after an unclosed fence in an earlier message: the link is live', () => {
    const c = conv([msg('u1', 'user', 'Here:\n````ts\nconst [[NotALink]] = 1;'), msg('a1', 'assistant', 'See [[Projects/Garden Redesign]].')]);
    const note = serializeConversation(c);
    expect(liveLinks(note)).toEqual(['Projects/Garden Redesign']);
    expect(parseConversation(note)).toMatchObject({ ok: true, conversation: c });
  });

  it('escapes only lines that start like the note\'s own, with one more space in front', () => {
    const c = conv([msg('u1', 'user', '<!-- compact-chat end -->\n\\<!-- compact-chat user {} -->\n <!-- compact-chat end -->\n## User · 2026-01-01 10:00')]);
    const note = serializeConversation(c);
    expect(note).toContain('\n <!-- compact-chat end -->\n\\<!-- compact-chat user {} -->\n  <!-- compact-chat end -->\n## User · 2026-01-01 10:00\n');
    expect(parseConversation(note)).toMatchObject({ ok: true, conversation: c });
  });

  it('unknown metadata keys (a feature\'s flag) are kept through load and save', () => {
    const c = conv([{ ...msg('u1', 'user', 'Keep this'), extra: { starred: true, note: { by: 'another version' } } }]);
    const parsed = parseConversation(serializeConversation(c));
    expect(parsed.ok && parsed.conversation.items[0]).toEqual(c.items[0]);
  });
});

type Op =
  | { kind: 'add'; item: SavedItem }
  | { kind: 'stream'; text: string }
  | { kind: 'finish'; stopped: boolean }
  | { kind: 'edit'; at: number; text: string }
  | { kind: 'flag'; at: number; value: boolean }
  | { kind: 'remove' }
  | { kind: 'title'; title: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: item.map((i): Op => ({ kind: 'add', item: i })) },
  { weight: 4, arbitrary: fc.array(structureLine, { minLength: 1, maxLength: 4 }).map((l): Op => ({ kind: 'stream', text: `${l.join('\n')}${l.length % 2 ? '\n' : ''}` })) },
  { weight: 2, arbitrary: fc.boolean().map((stopped): Op => ({ kind: 'finish', stopped })) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(), structureLine).map(([at, text]): Op => ({ kind: 'edit', at, text })) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.boolean()).map(([at, value]): Op => ({ kind: 'flag', at, value })) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'remove' }) },
  { weight: 1, arbitrary: fc.constantFrom('Garden', 'Garden plan').map((title): Op => ({ kind: 'title', title })) },
);

/** What a fresh load gives for a conversation saved with a reply still streaming: the reply's
 * complete lines, marked stopped (or nothing, before its first line with text). */
function asLoaded(c: SavedConversation): SavedItem[] {
  const last = c.items.at(-1);
  if (!(last?.kind === 'message' && last.streaming)) return c.items;
  const text = last.message.content;
  const cut = text.lastIndexOf('\n');
  // Its complete lines, less the blank ones at the end (the writer's own blank line looks the same).
  const kept = cut < 0 ? '' : text.slice(0, cut).replace(/\n+$/, '');
  if (kept.trim() === '') return c.items.slice(0, -1);
  // Read back from its start line alone: id, time, role and text (the rest is on the end line, not written yet).
  const m = last.message;
  return [...c.items.slice(0, -1), { kind: 'message', message: { id: m.id, createdAt: m.createdAt, role: m.role, content: kept } as ChatMessage, ...(m.role === 'assistant' ? { stopped: true } : {}) }];
}

describe('saves that cost what changed', () => {
  it('any sequence of appends and rewrites loads as the same conversation; new messages and a growing reply are appends', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        app = createTestApp();
        const store = newStore();
        let c = conv([]);
        let n = 0;
        let before: string | null = null;
        for (const o of ops) {
          const items = c.items.map((i) => ({ ...i }));
          const last = items.at(-1);
          const streaming = last?.kind === 'message' && last.streaming === true;
          let append = false;
          switch (o.kind) {
            case 'add': {
              if (streaming) continue;
              const next = { ...o.item } as SavedMessage;
              next.message = { ...next.message, id: `m${n}`, createdAt: T0 + n * 1000 };
              n++;
              items.push(next);
              append = true;
              break;
            }
            case 'stream': {
              if (streaming && last?.kind === 'message') {
                // The session adds text to the reply in place.
                last.message.content += o.text;
              } else {
                items.push({ kind: 'message', message: { id: `m${n}`, createdAt: T0 + n * 1000, role: 'assistant', content: o.text }, model: 'llama3.1:8b', stopped: true, streaming: true });
                n++;
              }
              append = true;
              break;
            }
            case 'finish': {
              if (!streaming || last?.kind !== 'message') continue;
              const { streaming: _s, stopped: _st, ...done } = last;
              items[items.length - 1] = o.stopped ? { ...done, stopped: true } : done;
              append = true;
              break;
            }
            case 'edit': {
              const at = items.length ? o.at % items.length : -1;
              const target = items[at];
              if (target?.kind !== 'message' || (target.streaming ?? false)) continue;
              items[at] = { ...target, message: { ...target.message, content: `${target.message.content}\n${o.text}` } };
              break;
            }
            case 'flag': {
              const at = items.length ? o.at % items.length : -1;
              const target = items[at];
              if (target?.kind !== 'message' || (target.streaming ?? false)) continue;
              // The pin flag: a change of metadata only, as the user's pin toggle makes it.
              const { pinned: _was, ...rest } = target;
              items[at] = o.value ? { ...rest, pinned: true } : rest;
              break;
            }
            case 'remove':
              if (!items.length) continue;
              items.pop();
              break;
            case 'title':
              c = { ...c, title: o.title };
              break;
          }
          c = { ...c, items, updated: c.updated + 1 };
          if (!c.items.length) {
            before = null;
            continue;
          }
          const result = await saveKept(store, c);
          expect(result).toMatchObject({ kind: 'saved' });
          const path = result.kind === 'saved' ? result.path : '';
          const after = app.vault.adapter.peek(path) ?? '';
          const written = after !== before;
          // What a save adds to an open conversation is an append: the old note is where the new one starts.
          if (append && before !== null) expect(after.startsWith(before)).toBe(true);
          before = after;
          const loaded = await newStore().load(path);
          if (!loaded.ok) throw new Error(`line ${loaded.line}: ${loaded.error}\n${after}`);
          const endsOpen = c.items.at(-1)?.kind === 'message' && (c.items.at(-1) as SavedMessage).streaming === true;
          expect(loaded.conversation.items).toEqual(asLoaded(c));
          expect(loaded.conversation.title).toBe(c.title);
          // A save that wrote something records its time, unless all it wrote was an open reply's new
          // lines; one that changed nothing (a new time alone) writes nothing.
          if (!endsOpen && written) expect(loaded.conversation.updated).toBe(c.updated);
        }
        await destroyTestApp(app);
        app = null;
      }),
      { numRuns: 120 },
    );
  });

  it('a streaming reply is written as it grows, then finished, with appends only', async () => {
    app = createTestApp();
    const store = newStore();
    const writes: string[] = [];
    const adapter = app.vault.adapter;
    const append = adapter.append.bind(adapter);
    const write = adapter.write.bind(adapter);
    adapter.append = (path, data, options) => (writes.push(`append ${data.length}`), append(path, data, options));
    adapter.write = (path, data, options) => (writes.push(`write ${path}`), write(path, data, options));
    const reply: SavedMessage = { kind: 'message', message: { id: 'a1', createdAt: T0, role: 'assistant', content: '' }, stopped: true, streaming: true };
    const items = (): SavedItem[] => [msg('u1', 'user', 'Plan the beds'), { ...reply }];
    await saveKept(store, conv(items(), T0 + 1));
    for (const chunk of ['First line with [[Beds]]\n', '```ts\nconst depth', ' = 1.2;\n', 'more']) {
      reply.message.content += chunk;
      expect(await saveKept(store, conv(items(), T0 + 2))).toMatchObject({ kind: 'saved' });
    }
    // Finished: not streaming, not stopped.
    const { streaming: _s, stopped: _st, ...done } = reply;
    const final = conv([msg('u1', 'user', 'Plan the beds'), done], T0 + 3);
    expect(await saveKept(store, final)).toMatchObject({ kind: 'saved' });
    expect(writes.filter((w) => w.startsWith('write'))).toEqual([]);
    expect(writes.length).toBeGreaterThanOrEqual(4);
    const loaded = await newStore().load(PATH);
    expect(loaded.ok && loaded.conversation).toEqual(final);
    // The unclosed fence of the reply is closed after it in the note: nothing after it is code.
    expect(liveLinks(adapter.peek(PATH) ?? '')).toEqual(['Beds']);
  });

  it('an append torn half-way: the note loads with the torn tail reported or recovered, and the next save repairs it', async () => {
    app = createTestApp();
    const store = newStore();
    const first = conv([msg('u1', 'user', 'Hello'), msg('a1', 'assistant', 'Hi [[There]]')], T0 + 1);
    await saveKept(store, first);
    const long = msg('u2', 'user', Array.from({ length: 40 }, (_, i) => `line ${i} of a long message`).join('\n'));
    const second = conv([...first.items, long, msg('a2', 'assistant', 'Short reply')], T0 + 2);
    failNextWrite(app, PATH, { torn: true });
    expect(await saveKept(store, second)).toMatchObject({ kind: 'error' });
    const torn = await newStore().load(PATH);
    expect(torn.ok).toBe(true);
    if (!torn.ok) return;
    expect(torn.tail).toBeDefined();
    expect(torn.conversation.items.slice(0, 2)).toEqual(first.items);
    // Half of the append is the first part of the long message: recovered as far as it was written.
    const recovered = torn.conversation.items[2] as SavedMessage | undefined;
    expect(torn.tail?.recovered).toBe(recovered !== undefined);
    if (recovered) expect(long.message.content.startsWith(recovered.message.content)).toBe(true);
    // The store that saw the append fail rewrites the note on its next save: complete, no torn end.
    expect(await saveKept(store, { ...second, updated: T0 + 3 })).toMatchObject({ kind: 'saved' });
    const repaired = parseConversation(app.vault.adapter.peek(PATH) ?? '');
    expect(repaired.ok && repaired.tail).toBeUndefined();
    expect(repaired.ok && repaired.conversation).toEqual({ ...second, updated: T0 + 3 });
  });

  it('a note cut at any point of an append still loads: the messages before it whole, the torn one in part or reported', () => {
    const before = serializeConversation(conv([msg('u1', 'user', 'Hello'), tool('t1', 'Result')], T0 + 1));
    const c = conv([msg('u1', 'user', 'Hello'), tool('t1', 'Result'), msg('a1', 'assistant', 'Line one\n```\ncode [[X]]\nline three'), tool('t2', 'two\nlines')], T0 + 1);
    const full = serializeConversation(c);
    expect(full.startsWith(before)).toBe(true);
    for (let cut = before.length; cut <= full.length; cut++) {
      const parsed = parseConversation(full.slice(0, cut));
      if (!parsed.ok) throw new Error(`cut at ${cut}: line ${parsed.line}: ${parsed.error}`);
      const items = parsed.conversation.items;
      expect(items.slice(0, 2)).toEqual(c.items.slice(0, 2));
      if (parsed.tail) {
        expect(parsed.tail.line).toBeGreaterThan(before.split('\n').length - 1);
        const part = items[2] as SavedMessage | undefined;
        // As far as it was written (with the closing line the writer put after its open fence, if that was).
        const original = (c.items[2] as SavedMessage).message.content;
        if (part && items.length === 3 && parsed.tail.recovered) expect(`${original}\n${closingLine(original.split('\n')) ?? ''}`.startsWith(part.message.content)).toBe(true);
      }
    }
  });
});

describe('format 1 notes', () => {
  const v1 = readFileSync(join(__dirname, '../fixtures/plugin-conversation-v1.md'), 'utf8');

  it('load, and are written as format 2 on the next save (a rewrite, not an append)', async () => {
    app = createTestApp({ files: { 'Compact Chat/Old.md': v1 } });
    const store = newStore();
    const loaded = await store.load('Compact Chat/Old.md');
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(v1).toContain('```markdown');
    const next = { ...loaded.conversation, items: [...loaded.conversation.items, msg('u99', 'user', 'And in May?')], updated: loaded.conversation.updated + 1 };
    expect(await saveKept(store, next, 'Compact Chat/Old.md')).toMatchObject({ kind: 'saved', path: 'Compact Chat/Old.md' });
    const text = app.vault.adapter.peek('Compact Chat/Old.md') ?? '';
    expect(text).toContain('compact-chat: 2\n');
    expect(text).not.toContain('```markdown');
    expect(parseConversation(text)).toMatchObject({ ok: true, conversation: next, format: 2 });
    // The links of the conversation are live now.
    expect(liveLinks(text)).toEqual(expect.arrayContaining(['Projects/Garden redesign', 'Shed']));
  });

  it('the command line reads both formats alike', () => {
    const v2 = readFileSync(join(__dirname, '../../examples/plugin-conversation.md'), 'utf8');
    expect(v2).toContain('compact-chat: 2\n');
    expect(fromPluginNote(v2)).toEqual(fromPluginNote(v1));
    expect(fromPluginNote(v1)[0]?.messages).toHaveLength(12);
  });
});
