// The session's state to and from its saved form, as pure functions: messages with their extras,
// a compaction round with its micro-compaction placeholders, what is never saved (failed turns,
// undone rounds) and a reply still streaming (saved as stopped).
import { describe, expect, it } from 'vitest';
import { type SavedItem, parseConversation, serializeConversation } from '../../src/chat/conversation-format';
import { EMPTY_RESTORED } from '../../src/chat/restore';
import type { ChatEntry } from '../../src/chat/entries';
import { fromSaved, toSaved } from '../../src/chat/session-persistence';
import { compact } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';

const at = 1_700_000_000_000;
const messages: ChatMessage[] = [
  { id: 'u1', createdAt: at, role: 'user', content: 'Read my garden plan, please. We grow tomatoes this year.' },
  { id: 'a1', createdAt: at, role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'read_note', arguments: '{"path":"Garden.md"}' }] },
  { id: 't1', createdAt: at, role: 'tool', toolCallId: 'call-1', name: 'read_note', content: 'Three raised beds. '.repeat(20) },
  { id: 'u2', createdAt: at, role: 'user', content: 'How many beds?' },
  { id: 'a2', createdAt: at, role: 'assistant', content: 'Three.' },
];

function savedItems(): SavedItem[] {
  const result = compact(messages, { budgetTokens: 500, cut: 3, now: at });
  if (!result.ok) throw new Error(result.message);
  const [u1, a1, t1, u2, a2] = messages as [ChatMessage, ChatMessage, ChatMessage, ChatMessage, ChatMessage];
  return [
    { kind: 'message', message: u1, mentions: ['Garden.md'] },
    { kind: 'message', message: a1, model: 'llama3.1:8b', stopReason: 'tool-calls' },
    { kind: 'message', message: t1 },
    {
      kind: 'compaction',
      compaction: { record: result.record, causes: ['manual'], microCleared: ['t1'], restored: EMPTY_RESTORED, promptBefore: 900, promptAfter: 300, placeholders: { t1: '[Old tool result cleared]' } },
    },
    { kind: 'message', message: u2 },
    { kind: 'message', message: a2, model: 'llama3.1:8b', stopped: true },
  ];
}

describe('the saved form of a session', () => {
  it('loads into entries, rounds and placeholders, and saves back to the same items', () => {
    const items = savedItems();
    const state = fromSaved(items, () => 'notice-1');
    expect(state.entries.map((e) => (e.kind === 'message' ? `${e.id}:${e.status}` : e.id))).toEqual(['u1:done', 'a1:done', 't1:done', 'notice-1', 'u2:done', 'a2:stopped']);
    expect(state.entries[0]).toMatchObject({ mentions: ['Garden.md'] });
    const notice = state.entries[3];
    expect(notice?.kind === 'notice' && notice.text).toMatch(/^3 messages summarised; [\d,]+ → [\d,]+ tokens\. Round 1, requested\./);
    expect(state.compactions).toHaveLength(1);
    expect(state.cleared).toEqual(new Map([['t1', '[Old tool result cleared]']]));
    expect(toSaved(state.entries, state.compactions, state.cleared)).toEqual(items);
  });

  it('drops unknown causes from a hand-edited note', () => {
    const items = savedItems().map((item) => (item.kind === 'compaction' ? { ...item, compaction: { ...item.compaction, causes: ['manual', 'typo'] } } : item));
    expect(fromSaved(items).compactions[0]?.causes).toEqual(['manual']);
  });

  it('saves neither failed turns nor undone rounds, and a streaming reply as stopped', () => {
    const state = fromSaved(savedItems());
    const notice = state.entries[3];
    if (notice?.kind !== 'notice') throw new Error('no notice');
    const failed: ChatEntry = { kind: 'message', id: 'e1', message: { id: 'e1', createdAt: at, role: 'assistant', content: '' }, status: 'error', error: { kind: 'connection', message: 'Offline.' } };
    const streaming: ChatEntry = { kind: 'message', id: 'a3', message: { id: 'a3', createdAt: at, role: 'assistant', content: 'Half a' }, status: 'streaming', model: 'llama3.1:8b' };
    const empty: ChatEntry = { ...streaming, id: 'a4', message: { id: 'a4', createdAt: at, role: 'assistant', content: '' } };
    const entries: ChatEntry[] = [...state.entries.slice(0, 3), { ...notice, undone: true }, ...state.entries.slice(4), failed, streaming, empty];
    const saved = toSaved(entries, [], state.cleared);
    expect(saved.map((i) => (i.kind === 'message' ? i.message.id : 'compaction'))).toEqual(['u1', 'a1', 't1', 'u2', 'a2', 'a3']);
    expect(saved.at(-1)).toMatchObject({ stopped: true, model: 'llama3.1:8b' });
  });

  it('keeps pins and the edits of a round through a saved note, and drops malformed edits from a hand-edited one', () => {
    const items = savedItems().map((item): SavedItem => {
      if (item.kind === 'message') return item.message.id === 'u1' ? { ...item, pinned: true } : item;
      if (item.kind !== 'compaction') return item;
      const record = { ...item.compaction.record, edits: [{ section: 'facts' as const, key: 'we grow tomatoes this year', text: 'We grow tomatoes and beans.' }], keptPinned: ['u1'] };
      return { ...item, compaction: { ...item.compaction, record } };
    });
    const note = serializeConversation({ id: 'c', title: 't', model: 'm', created: 0, updated: 0, items });
    const parsed = parseConversation(note);
    if (!parsed.ok) throw new Error(parsed.error);
    const state = fromSaved(parsed.conversation.items);
    expect(state.entries[0]).toMatchObject({ id: 'u1', pinned: true });
    expect(state.compactions[0]?.record.edits).toEqual([{ section: 'facts', key: 'we grow tomatoes this year', text: 'We grow tomatoes and beans.' }]);
    expect(state.compactions[0]?.record.keptPinned).toEqual(['u1']);
    expect(toSaved(state.entries, state.compactions, state.cleared)).toEqual(items);

    // A hand edit left nonsense in the edits: what cannot be applied is dropped, the rest loads.
    const broken = items.map((item): SavedItem => {
      if (item.kind !== 'compaction') return item;
      const edits = [...(item.compaction.record.edits ?? []), { section: 'nowhere', key: 'x' }, { section: 'facts', key: 3 }, null, { section: 'goal', key: 'g', removed: 'yes' }];
      return { ...item, compaction: { ...item.compaction, record: { ...item.compaction.record, edits: edits as never, keptPinned: 'u1' as never } } };
    });
    const loaded = fromSaved(broken);
    expect(loaded.compactions[0]?.record.edits).toHaveLength(1);
    expect(loaded.compactions[0]?.record.keptPinned).toBeUndefined();
  });
});
