// @vitest-environment jsdom
// `Conversations` and a hand edit of the open note that arrives while the chat has changes not
// saved yet (here a "Compact now" whose save is still waiting on its timer): the edit is left as
// it is, the local changes are not thrown away, and they go to a new note. The view-level cases
// (idle reload, own saves, streaming, corrupt edits) are in test/ui/conversation-reload.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConversation } from '../../src/chat/conversation-format';
import type { Conversations } from '../../src/chat/conversations';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { openConversations } from './helpers/conversations';
import { type Harness, ollamaReply, startHarness, until } from './helpers/harness';

let app: App;
let h: Harness;
let conversations: Conversations;
const owner = new Component();
afterEach(async () => {
  conversations.dispose();
  owner.unload();
  h.session.dispose();
  await h.close();
  await destroyTestApp(app);
});

async function start(): Promise<{ notices: string[]; runTimers: () => void }> {
  app = createTestApp();
  owner.load();
  h = await startHarness({ keepExchanges: 1, keepTokens: 0 });
  const notices: string[] = [];
  // Saves wait for their timer until the test runs it.
  const opened = openConversations(h, app, owner, notices);
  conversations = opened.conversations;
  return { notices, runTimers: opened.runTimers };
}

const para = (topic: string): string => `We keep the details of ${topic} in mind and check them again later. `.repeat(4);

describe('a hand edit of the open note', () => {
  it('arriving before local changes are saved is left as it is; the changes go on in a new note', async () => {
    const { notices, runTimers } = await start();
    for (const topic of ['the budget', 'the launch']) {
      h.server.on('POST', '/api/chat', ollamaReply(`About ${topic}. ${para(topic)}`));
      await h.session.send(`Let us talk about ${topic}. ${para(topic)}`);
    }
    await conversations.flush();
    const path = conversations.current.path ?? '';
    expect(path).not.toBe('');
    expect((await h.session.compactNow()).kind).toBe('compacted');

    const file = app.vault.getFileByPath(path);
    if (!file) throw new Error('no note');
    const edited = (app.vault.adapter.peek(path) ?? '').replace('About the launch.', 'About the launch, by hand.');
    await app.vault.modify(file, edited);
    await until(() => notices.length > 0);
    expect(notices).toEqual([`"${path}" was changed outside the chat before the chat had saved its latest changes. Your edit was left as it is; this conversation continues in a new note.`]);
    // Not reloaded: the compaction made here is still there.
    expect(h.session.compactions).toHaveLength(1);
    expect(conversations.current).toMatchObject({ path: null, title: 'Let us talk about the budget. We keep the details of the… (continued)' });

    runTimers();
    await conversations.flush();
    expect(app.vault.adapter.peek(path)).toBe(edited);
    const forked = parseConversation(app.vault.adapter.peek(conversations.current.path ?? '') ?? '');
    expect(forked.ok && forked.conversation.items.filter((i) => i.kind === 'compaction')).toHaveLength(1);
    expect(notices).toHaveLength(1);
  });
});
