// The model's `search_conversations` tool in the send loop: offered only while other saved
// conversations exist, and its result names the conversation (title, date, note link) and the
// message, quoting it verbatim; the next request carries it.
import { afterEach, describe, expect, it } from 'vitest';
import { serializeConversation, type SavedConversation } from '../../src/chat/conversation-format';
import { ConversationIndex } from '../../src/chat/conversation-index';
import { CONVERSATIONS_TOOL_DEFINITION, type PastConversations, SEARCH_CONVERSATIONS, runConversationSearch } from '../../src/chat/past-conversations-tool';
import { type Harness, ollamaReply, ollamaToolCalls, startHarness } from './helpers/harness';
import { MemoryVault } from './helpers/memory-vault';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const LINER = 'Go for a 1 mm EPDM liner: it stays flexible in frost and lasts twenty years.';
const pond: SavedConversation = {
  id: 'pond',
  title: 'Garden pond',
  model: 'm',
  created: Date.UTC(2024, 4, 12, 9),
  updated: Date.UTC(2024, 4, 12, 10),
  items: [
    { kind: 'message', message: { id: 'u1', createdAt: Date.UTC(2024, 4, 12, 9), role: 'user', content: 'Which pond liner should I buy?' } },
    { kind: 'message', message: { id: 'a1', createdAt: Date.UTC(2024, 4, 12, 9, 1), role: 'assistant', content: LINER } },
  ],
};

function past(vault: MemoryVault, open: string | null = null): PastConversations {
  const index = new ConversationIndex(vault, { folder: () => 'Chats' });
  return {
    available: () => index.othersExist(open),
    search: (query, limit) => index.search(query, { limit, asker: 'assistant', exclude: open, perConversation: 2 }),
  };
}

interface Body {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string }[];
}

describe('search_conversations', () => {
  it('is not offered while there is no other saved conversation', async () => {
    const vault = new MemoryVault();
    vault.write('Chats/Only this.md', serializeConversation({ ...pond, id: 'self' }));
    h = await startHarness({ vaultTools: false }, {}, { pastConversations: past(vault, 'Chats/Only this.md') });
    h.server.on('POST', '/api/chat', ollamaReply('Hello.'));
    await h.session.send('Hi');
    expect((h.bodies()[0] as unknown as Body).tools ?? []).toEqual([]);
  });

  it('is offered when other conversations exist; the result names the conversation and message and quotes it', async () => {
    const vault = new MemoryVault();
    vault.write('Chats/Garden pond.md', serializeConversation(pond));
    h = await startHarness({ vaultTools: false }, {}, { pastConversations: past(vault) });
    h.server.on('POST', '/api/chat', ollamaToolCalls({ name: SEARCH_CONVERSATIONS, arguments: { query: 'pond liner' } }), ollamaReply('We chose EPDM.'));
    await h.session.send('What did we decide about the pond liner?');
    const bodies = h.bodies() as unknown as Body[];
    expect(bodies[0]?.tools?.map((t) => t.function.name)).toEqual([CONVERSATIONS_TOOL_DEFINITION.name]);
    const result = bodies[1]?.messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(result).toContain('[conversation "Garden pond" · 2024-05-12 · [[Chats/Garden pond]] · message 2 · assistant]');
    expect(result).toContain(`\n${LINER}`);
    expect(h.session.messages.at(-1)?.content).toBe('We chose EPDM.');
  });

  it('answers a call without a query, and a search with no match, in words', async () => {
    const vault = new MemoryVault();
    vault.write('Chats/Garden pond.md', serializeConversation(pond));
    const tool = past(vault);
    expect(await runConversationSearch(tool, { id: 'c', name: SEARCH_CONVERSATIONS, arguments: '{}' })).toMatchObject({ isError: true });
    expect((await runConversationSearch(tool, { id: 'c', name: SEARCH_CONVERSATIONS, arguments: '{"query":"zeppelin"}' })).content).toBe('No earlier conversation matches "zeppelin".');
  });
});
