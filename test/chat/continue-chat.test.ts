// @vitest-environment jsdom
// "Continue in a new chat": a new conversation carrying the old one's context as a
// `<previous_context>` block with a link back to the old note; the old note is left as it is, and
// the new conversation's first request carries the block and the link.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConversation } from '../../src/chat/conversation-format';
import { continueInNewChat, continuation } from '../../src/chat/continue-chat';
import { type App, Component } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { type Harness, ollamaReply, startHarness, systemOf } from './helpers/harness';
import { openConversations } from './helpers/conversations';

let app: App;
let h: Harness;
const cleanup: (() => void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) fn();
  h.session.dispose();
  await h.close();
  await destroyTestApp(app);
});

interface Body {
  messages: { role: string; content: string }[];
}

describe('continue in a new chat', () => {
  it('starts a new conversation carrying the block and a link back; its first request contains both', async () => {
    app = createTestApp();
    h = await startHarness({ vaultTools: false });
    const owner = new Component();
    owner.load();
    const { conversations } = openConversations(h, app, owner, []);
    cleanup.push(() => conversations.dispose(), () => owner.unload());

    h.server.on('POST', '/api/chat', ollamaReply('Use a 1 mm EPDM liner; it stays flexible in frost.'), ollamaReply('Plant irises along the edge.'));
    await h.session.send('I want a wildlife pond in the garden. Which liner should I buy? The budget is 300 euros.');
    await h.session.send('What should I plant around it?');
    await conversations.flush();
    const oldPath = conversations.current.path as string;
    const oldId = conversations.current.id;
    const oldText = await app.vault.adapter.read(oldPath);

    const next = await continueInNewChat(conversations, h.session, h.settings, 1_700_000_500_000, () => 'carried-1');
    expect(next.block).toMatch(/^<previous_context>[\s\S]*EPDM[\s\S]*<\/previous_context>$/);
    expect(conversations.current.id).not.toBe(oldId);
    expect(conversations.current.title).toBe('I want a wildlife pond in the garden. Which liner should I… (continued)');
    const first = h.session.messages[0];
    expect(first).toMatchObject({ id: 'carried-1', role: 'system' });
    expect(first?.content).toContain(`[[${oldPath.replace(/\.md$/, '')}]]`);
    expect(first?.content).toContain(next.block);

    h.server.on('POST', '/api/chat', ollamaReply('Yes, irises and marsh marigolds.'));
    await h.session.send('Remind me what we planned?');
    const body = h.bodies().at(-1) as unknown as Body;
    const sent = [systemOf(h.bodies().at(-1)), ...body.messages.map((m) => m.content)].join('\n');
    expect(sent).toContain(next.block);
    expect(sent).toContain(`[[${oldPath.replace(/\.md$/, '')}]]`);
    expect(body.messages.at(-1)?.content).toBe('Remind me what we planned?');

    // The new conversation is saved as its own note, pinned message first; the old note is untouched.
    await conversations.flush();
    const newPath = conversations.current.path as string;
    expect(newPath).not.toBe(oldPath);
    const saved = parseConversation(await app.vault.adapter.read(newPath));
    expect(saved.ok && saved.conversation.items[0]).toMatchObject({ kind: 'message', pinned: true, message: { role: 'system' } });
    expect(await app.vault.adapter.read(oldPath)).toBe(oldText);
  });

  it('without anything to compact, carries the latest round as it is, and links nothing when the old chat was never saved', () => {
    const c = continuation({ title: 'T', path: null, messages: [], latest: null, budget: 500, model: 'm', now: 1, newId: () => 'x' });
    expect(c.block).toBe('');
    expect(c.items).toEqual([{ kind: 'message', pinned: true, message: { id: 'x', createdAt: 1, role: 'system', content: 'This conversation continues "T".' } }]);
  });
});
