// @vitest-environment jsdom
// Fault suite, interrupted replies: whatever way a reply breaks off after some text (a dropped
// connection, an error inside the stream, no end marker, a line that is not JSON, a stall past the
// idle timeout, Stop), the saved note holds the text that arrived, marked with how it ended, and
// loading the note shows the reply as it was. The server is a real loopback Ollama stand-in.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConversation, type SavedMessage } from '../../src/chat/conversation-format';
import { ConversationStore } from '../../src/chat/conversation-store';
import type { MessageEntry } from '../../src/chat/entries';
import { conversationVault } from '../../src/ui/obsidian-vault';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { ndjson, type Scripted } from '../providers/helpers/server';
import { type Harness, startHarness } from './helpers/harness';
import { saveKept } from './helpers/save-kept';

const piece = (content: string) => ({ model: 'llama3.1:8b', message: { role: 'assistant', content }, done: false });
const partial = ndjson(piece('The first half '), piece('of the answer'));

interface Case {
  name: string;
  script: Scripted;
  ended: 'stopped' | 'interrupted' | 'error';
  kind?: string;
  /** Stop the reply once its text has arrived. */
  stop?: boolean;
}

const cases: Case[] = [
  { name: 'a dropped connection', script: { chunks: partial, breakAfter: true, delayMs: 10 }, ended: 'interrupted', kind: 'interrupted' },
  { name: 'an error inside the stream', script: { chunks: [...partial, '{"error":"the model runner crashed"}\n'] }, ended: 'error', kind: 'server' },
  { name: 'a missing end event', script: { chunks: partial }, ended: 'interrupted', kind: 'interrupted' },
  { name: 'a malformed line', script: { chunks: [...partial, '{"message": {"content": "tr\n'] }, ended: 'interrupted', kind: 'malformed' },
  { name: 'a stall past the idle timeout', script: { chunks: partial, holdOpen: true }, ended: 'interrupted', kind: 'timeout' },
  { name: 'Stop', script: { chunks: partial, holdOpen: true }, ended: 'stopped', stop: true },
];

let app: App;
let h: Harness;
const owner = new Component();
afterEach(async () => {
  owner.unload();
  h.session.dispose();
  await h.close();
  await destroyTestApp(app);
});

describe('fault suite: interrupted replies are saved', () => {
  for (const c of cases) {
    it(`${c.name}: the note holds the partial reply, marked ${c.ended}, and reloads as it was`, async () => {
      app = createTestApp();
      owner.load();
      h = await startHarness({}, {}, { transport: { idleTimeoutMs: 300 } });
      h.server.on('POST', '/api/chat', c.script);
      if (c.stop) {
        h.session.events.on('delta', () => {
          if (h.session.toSaved().some((i) => i.kind === 'message' && i.message.content === 'The first half of the answer')) h.session.stop();
        });
      }
      await h.session.send('Explain it');
      const store = new ConversationStore(conversationVault(app as never, owner), { folder: () => 'Compact Chat', warn: () => undefined });
      const items = h.session.toSaved();
      expect(await saveKept(store, { id: 'c1', title: 'Interrupted', model: 'llama3.1:8b', created: 1, updated: 2, items })).toMatchObject({ kind: 'saved' });

      const note = app.vault.adapter.peek('Compact Chat/Interrupted.md') ?? '';
      const parsed = parseConversation(note);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const reply = parsed.conversation.items[1] as SavedMessage;
      expect(reply.message.content).toBe('The first half of the answer');
      if (c.ended === 'stopped') {
        expect(reply.stopped).toBe(true);
        expect(reply.failure).toBeUndefined();
      } else {
        expect(reply.failure).toMatchObject({ ended: c.ended, kind: c.kind });
        expect(note).toContain(`*Reply ${c.ended}: `);
      }

      // Loaded into a session, the reply shows as it was before the reload.
      const before = h.session.entries.filter((e): e is MessageEntry => e.kind === 'message').map((e) => ({ status: e.status, content: e.message.content, error: e.error?.message }));
      h.session.load(parsed.conversation.items);
      const after = h.session.entries.filter((e): e is MessageEntry => e.kind === 'message').map((e) => ({ status: e.status, content: e.message.content, error: e.error?.message }));
      expect(after).toEqual(before);
    });
  }

  it('a failed reply that produced no text is not saved', async () => {
    app = createTestApp();
    owner.load();
    h = await startHarness();
    h.server.on('POST', '/api/chat', { status: 400, chunks: ['{"error":"bad options"}'] });
    await h.session.send('Explain it');
    expect(h.session.toSaved().map((i) => i.kind === 'message' && i.message.role)).toEqual(['user']);
  });
});
