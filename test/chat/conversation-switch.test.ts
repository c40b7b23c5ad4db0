// Replacing the conversation (src/chat/conversation-switch.ts): a loaded conversation is read for
// compaction ahead, a chunk per `later` task, and the reading stops when another conversation
// replaces it.
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
import type { SavedItem } from '../../src/chat/conversation-format';
import { ChatSession } from '../../src/chat/session';
import { DEFAULT_SETTINGS } from '../../src/chat/settings';
import { MapNoteSource } from '../../src/chat/vault-access';

function chat(n: number, tag: string): SavedItem[] {
  return Array.from({ length: n }, (_, i): SavedItem => ({
    kind: 'message',
    message: { id: `${tag}${i}`, createdAt: 1_700_000_000_000 + i * 1000, role: i % 2 ? 'assistant' : 'user', content: `Message ${i} of ${tag}: the ferry to Texel leaves at ${i % 24}:15.` },
  }));
}

function session(tasks: (() => void)[]): ChatSession {
  return new ChatSession({
    settings: () => DEFAULT_SETTINGS,
    provider: () => {
      throw new Error('no requests here');
    },
    apiKey: () => undefined,
    notes: new MapNoteSource(new Map()),
    later: (task) => tasks.push(task),
  });
}

describe('reading a loaded conversation ahead', () => {
  it('reads it a chunk per task, one task after another, without changing what compaction gives', () => {
    const tasks: (() => void)[] = [];
    const s = session(tasks);
    s.load(chat(250, 'a'));
    let ran = 0;
    while (tasks.length) {
      (tasks.shift() as () => void)();
      ran++;
    }
    expect(ran).toBe(3);
    const read = s.messages;
    const unread: ChatMessage[] = read.map((m) => ({ ...m }));
    expect(JSON.stringify(compact(read, { budgetTokens: 300, cut: 200, now: 1 }))).toBe(JSON.stringify(compact(unread, { budgetTokens: 300, cut: 200, now: 1 })));
  });

  it('stops when another conversation is loaded or the chat is cleared', () => {
    const tasks: (() => void)[] = [];
    const s = session(tasks);
    s.load(chat(250, 'a'));
    (tasks.shift() as () => void)();
    expect(tasks).toHaveLength(1);
    s.load(chat(50, 'b'));
    // The first conversation's next chunk finds itself replaced and schedules nothing more.
    (tasks.shift() as () => void)();
    expect(tasks).toHaveLength(1);
    (tasks.shift() as () => void)();
    expect(tasks).toHaveLength(0);
    s.load(chat(150, 'c'));
    s.clear();
    (tasks.shift() as () => void)();
    expect(tasks).toHaveLength(0);
  });
});
