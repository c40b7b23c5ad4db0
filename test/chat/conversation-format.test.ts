// The saved conversation note: save → load is the identity for any conversation, hand edits that
// still parse are loaded, and a broken note is reported with its line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
import type { CompactionRecord } from '../../src/core/record';
import {
  type SavedConversation,
  type SavedItem,
  parseConversation,
  parseConversationHeader,
  serializeConversation,
} from '../../src/chat/conversation-format';
import { anyText, conversation } from '../core/arbitraries';

/** Whether the text is well-formed UTF-16 (no lone surrogates). */
const wellFormed = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = text.charCodeAt(i + 1);
      if (!(n >= 0xdc00 && n <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
};

const savedConversation: fc.Arbitrary<SavedConversation> = fc
  .record({
    messages: conversation,
    id: anyText.filter((s) => s.trim() !== ''),
    title: anyText,
    model: anyText,
    created: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    updated: fc.integer({ min: -10, max: 4_000_000_000_000 }),
    mentions: fc.array(fc.array(anyText, { maxLength: 3 }), { maxLength: 40 }),
    extras: fc.array(fc.record({ model: fc.option(anyText, { nil: undefined }), stopped: fc.boolean() }), { maxLength: 40 }),
    compactAt: fc.array(fc.integer({ min: 1, max: 39 }), { maxLength: 2 }),
    argsText: fc.array(anyText, { maxLength: 40 }),
    extra: fc.constantFrom<string[] | undefined>(undefined, ['tags:', '  - chat'], ['aliases: [x]']),
  })
  .map((r) => {
    const items: SavedItem[] = [];
    const messages: ChatMessage[] = r.messages.map((m, i) => {
      if (m.role === 'assistant' && m.toolCalls?.length) {
        return { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, arguments: r.argsText[i] ?? c.arguments })) };
      }
      return m;
    });
    const cuts = [...new Set(r.compactAt)].filter((n) => n < messages.length).sort((a, b) => a - b);
    let previous: CompactionRecord | null = null;
    let next = 0;
    messages.forEach((message, i) => {
      const item: SavedItem = { kind: 'message', message };
      const mentions = r.mentions[i];
      if (message.role === 'user' && mentions?.length) item.mentions = mentions;
      const extra = r.extras[i];
      if (message.role === 'assistant' && extra) {
        if (extra.model !== undefined) item.model = extra.model;
        if (extra.stopped) item.stopped = true;
      }
      items.push(item);
      if (cuts[next] === i + 1) {
        next++;
        const result = compact(messages.slice(0, i + 1), { budgetTokens: 400, cut: i + 1, previous, now: 1_700_000_000_000 + i, trigger: 'manual' });
        if (result.ok && !('unchanged' in result && result.unchanged)) {
          previous = result.record;
          items.push({
            kind: 'compaction',
            compaction: {
              record: result.record,
              causes: ['manual'],
              microCleared: [],
              restored: { notes: [], block: '', tokens: 0 },
              promptBefore: 100,
              promptAfter: 50,
            },
          });
        }
      }
    });
    const c: SavedConversation = { id: r.id, title: r.title, model: r.model, created: r.created, updated: r.updated, items };
    if (r.extra) c.extraFrontMatter = r.extra;
    return c;
  });

describe('the conversation note format', () => {
  it('parses back exactly what it saved, for any conversation, and never writes a lone surrogate', () => {
    fc.assert(
      fc.property(savedConversation, (c) => {
        const text = serializeConversation(c);
        expect(wellFormed(text)).toBe(true);
        const parsed = parseConversation(text);
        if (!parsed.ok) throw new Error(`line ${parsed.line}: ${parsed.error}\n${text}`);
        expect(parsed.conversation).toEqual(c);
        // Saving what was loaded gives the same note (no drift over many saves).
        expect(serializeConversation(parsed.conversation)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  const base = (items: SavedItem[]): SavedConversation => ({ id: 'c1', title: 'Garden', model: 'llama3.1:8b', created: 1_700_000_000_000, updated: 1_700_000_060_000, items });
  const user = (id: string, content: string): SavedItem => ({ kind: 'message', message: { id, createdAt: 1_700_000_000_000, role: 'user', content } });

  it('keeps code fences, front-matter-like lines, headings and odd Unicode inside messages', () => {
    const tricky = [
      '```ts\nconst a = 1;\n```\n````\nnested\n````',
      '---\ntitle: not front matter\n---',
      '### User · 2026-01-01 00:00\n<!-- compact-chat {"id":"x"} -->',
      '你好 😀👍🏽 \u2028 \u00a0 tab\there',
      'lone \uD800 surrogate and \r\n CRLF and \u0000 NUL',
      '',
      '\n\n',
      'trailing newline\n',
      '`````',
    ];
    const c = base(tricky.map((t, i) => user(`m${i}`, t)));
    const text = serializeConversation(c);
    expect(text).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])/u);
    const parsed = parseConversation(text);
    expect(parsed.ok && parsed.conversation).toEqual(c);
  });

  it('is readable: front matter, a heading per message, plain Markdown text, tool calls as json', () => {
    const c = base([
      user('u1', 'Read [[Plan]]'),
      { kind: 'message', message: { id: 'a1', createdAt: 1_700_000_001_000, role: 'assistant', content: 'Reading it.', toolCalls: [{ id: 'c1', name: 'read_note', arguments: '{"path":"Plan.md"}' }] }, model: 'llama3.1:8b' },
      { kind: 'message', message: { id: 't1', createdAt: 1_700_000_002_000, role: 'tool', toolCallId: 'c1', name: 'read_note', content: '# Plan' } },
    ]);
    c.items[0] = { ...(c.items[0] as SavedItem & { kind: 'message' }), mentions: ['Plan.md'] };
    const text = serializeConversation(c);
    expect(text).toMatch(/^---\nid: "c1"\ntitle: "Garden"\nmodel: "llama3.1:8b"\ncreated: 2023-11-14T22:13:20.000Z\n/);
    expect(text).toContain('compact-chat: 2\n');
    // The user's text as it is (no fence around it), between the heading and the end line.
    expect(text).toContain('## User · 2023-11-14 22:13\n<!-- compact-chat user {"id":"u1","createdAt":1700000000000} -->\n\nRead [[Plan]]\n\n<!-- compact-chat end {"mentions":["Plan.md"]} -->\n');
    expect(text).toContain('## Tool result · read_note · 2023-11-14 22:13');
    expect(text).toContain('```json\n{"path":"Plan.md"}\n```');
    expect(text).toContain('```text\n# Plan\n```');
  });

  it('loads a hand edit that still parses, and reports one that does not with its line', () => {
    const c = base([user('u1', 'Hello'), user('u2', 'Second')]);
    const text = serializeConversation(c);
    const edited = text.replace('Hello', 'Hello, edited by hand').replace('title: "Garden"', "title: 'My garden'");
    const parsed = parseConversation(edited);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.conversation.title).toBe('My garden');
      expect(parsed.conversation.items[0]).toMatchObject({ message: { content: 'Hello, edited by hand' } });
    }

    // The first message's end line deleted: the second message's start line is where it shows.
    const lines = text.split('\n');
    const firstEnd = lines.indexOf('<!-- compact-chat end -->');
    const broken = [...lines.slice(0, firstEnd), ...lines.slice(firstEnd + 1)].join('\n');
    const bad = parseConversation(broken);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error).toMatch(/no end line/);
      expect(broken.split('\n')[bad.line - 1]).toContain('"id":"u2"');
      expect(bad.partial?.items).toHaveLength(0);
    }

    const badMeta = parseConversation(text.replace('"id":"u2"', '"id":u2'));
    expect(badMeta.ok).toBe(false);
    if (!badMeta.ok) {
      expect(lines[badMeta.line - 1]).toContain('"id":"u2"');
      expect(badMeta.partial?.items).toHaveLength(1);
    }

    const noFront = parseConversation('# Just a note\n');
    expect(noFront).toMatchObject({ ok: false, line: 1 });
  });

  it('reads the header alone for the history list, and keeps unknown front matter', () => {
    const c = { ...base([user('u1', 'x')]), extraFrontMatter: ['tags:', '  - garden'] };
    const text = serializeConversation(c);
    expect(parseConversationHeader(text)).toMatchObject({ id: 'c1', title: 'Garden', extraFrontMatter: ['tags:', '  - garden'] });
    expect(parseConversationHeader('nothing')).toBeNull();
    // CRLF line ends from another editor are line ends, not content.
    const crlf = parseConversation(text.replace(/\n/g, '\r\n'));
    expect(crlf.ok && crlf.conversation).toEqual(c);
  });
});
