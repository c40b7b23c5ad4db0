// @vitest-environment jsdom
// A conversation in use, through the session and `Conversations`, is saved by appends: the note is
// created once, then each new message and each new line of a streaming reply is added at its end.
// The note a crash mid-reply leaves behind loads, with the reply recovered and the user told.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConversation } from '../../src/chat/conversation-format';
import type { MessageEntry } from '../../src/chat/entries';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { endlessReply, type Harness, ollamaReply, startHarness, until } from './helpers/harness';
import { type TestConversations, openConversations } from './helpers/conversations';
import { liveLinks } from './helpers/markdown';

let app: App;
let h: Harness;
const owners: Component[] = [];
const disposers: (() => void)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) dispose();
  for (const owner of owners.splice(0)) owner.unload();
  h.session.dispose();
  await h.close();
  await destroyTestApp(app);
});

/** `Conversations` over the app's vault; saves wait for `runTimers` (or a flush). */
function open(notices: string[]): TestConversations {
  const owner = new Component();
  owner.load();
  owners.push(owner);
  const opened = openConversations(h, app, owner, notices);
  disposers.push(() => opened.conversations.dispose());
  return opened;
}

describe('a conversation in use', () => {
  it('is saved by appends only: new messages, and a streaming reply line by line; a crash mid-reply leaves a note that loads', async () => {
    app = createTestApp();
    h = await startHarness({ vaultTools: false });
    const notices: string[] = [];
    const { conversations, runTimers } = open(notices);
    const writes: string[] = [];
    const adapter = app.vault.adapter;
    for (const name of ['write', 'writeNew', 'append'] as const) {
      const original = adapter[name].bind(adapter);
      adapter[name] = (path: string, data: string, options?: never) => {
        if (!path.split('/').pop()?.startsWith('.')) writes.push(name);
        return original(path, data, options);
      };
    }

    h.server.on('POST', '/api/chat', ollamaReply('The beds go along the fence, see [[Projects/Garden]].\n\nWater them in the morning.'));
    await h.session.send('Where do the beds go?');
    await conversations.flush();
    const path = conversations.current.path ?? '';
    expect(path).not.toBe('');

    // A reply that streams two lines and stays open: saved while it streams.
    h.server.on('POST', '/api/chat', endlessReply('First line of a long answer\nSecond line\nthird, not fin'));
    const sending = h.session.send('And the pond?');
    await until(() => h.session.toSaved().some((i) => i.kind === 'message' && i.message.content.includes('third')));
    runTimers();
    await conversations.flush();
    const midReply = adapter.peek(path) ?? '';
    h.session.stop();
    await sending;
    await conversations.flush();

    // Created once, then only appended to: the whole note was never written again.
    expect(writes[0]).toBe('writeNew');
    expect(writes.slice(1).every((w) => w === 'append')).toBe(true);
    // The first exchange; the second message with the open reply; the rest of the reply once stopped.
    expect(writes).toEqual(['writeNew', 'append', 'append']);
    const final = parseConversation(adapter.peek(path) ?? '');
    expect(final.ok && final.conversation.items).toEqual(h.session.toSaved());
    expect(liveLinks(adapter.peek(path) ?? '')).toEqual(['Projects/Garden']);

    // The app died while the reply streamed: the note as it was then loads, the reply's complete lines recovered.
    const crashed = parseConversation(midReply);
    expect(crashed.ok && crashed.tail).toMatchObject({ recovered: true });
    for (const dispose of disposers.splice(0)) dispose();
    h.session.clear();
    await destroyTestApp(app);
    app = createTestApp({ files: { [path]: midReply } });
    const reopened = open(notices);
    expect(await reopened.conversations.open(path)).toBe(true);
    const reply = h.session.entries.at(-1) as MessageEntry;
    expect(reply).toMatchObject({ status: 'stopped', message: { role: 'assistant', content: 'First line of a long answer\nSecond line' } });
    expect(notices.at(-1)).toMatch(/was cut off \(line \d+\); it was recovered as far as it was written/);
  });
});
