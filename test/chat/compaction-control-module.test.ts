// The compaction control on its own, over an in-memory host (no session, no server): it asks the
// policy before a request, lands at half the prompt, keeps the latest user message sent when a
// round passes it inside a tool loop, releases it when a new request arrives, undoes a round.
import { describe, expect, it } from 'vitest';
import { CompactionControl, type CompactionHost } from '../../src/chat/compaction-control';
import { ContextAssembly } from '../../src/chat/context-assembly';
import { type CompactChatSettings, DEFAULT_SETTINGS } from '../../src/chat/settings';
import { MapNoteSource } from '../../src/chat/vault-access';
import type { ChatMessage } from '../../src/core/messages';
import { TokenTracker } from '../../src/core/tracker';

const settings: CompactChatSettings = { ...DEFAULT_SETTINGS, model: 'llama3.1:8b', contextWindowOverride: 4096, systemPrompt: '', microCompaction: false };
const text = (topic: string, n: number): string => Array.from({ length: n }, (_, i) => `Point ${i} about ${topic} is settled and written down.`).join(' ');

function setup() {
  const messages: ChatMessage[] = [];
  const tracker = new TokenTracker({ model: settings.model });
  const notices: string[] = [];
  const context = new ContextAssembly(new MapNoteSource());
  context.setBase(settings);
  const host: CompactionHost = {
    context,
    tracker: () => tracker,
    windowOf: (s) => s.contextWindowOverride,
    sendable: () => messages,
    pinned: () => new Set<string>(),
    mentions: () => messages,
    toolTokens: () => 0,
    recount: () => tracker.setModel(settings.model, control.sent(messages, (m) => m.role === 'user').map((m) => control.sentVersion(m)), context.systemPrompt(), []),
    notice: (_level, t) => notices.push(t),
    compacted: () => undefined,
    roundsChanged: () => undefined,
    skipped: () => undefined,
    now: () => 0,
  };
  const control = new CompactionControl(host);
  let n = 0;
  const add = (m: Record<string, unknown>): ChatMessage => {
    const message = { id: `m${n++}`, createdAt: n, ...m } as unknown as ChatMessage;
    if (message.role === 'user') control.releasePinned();
    messages.push(message);
    tracker.append(message);
    return message;
  };
  return { control, tracker, messages, notices, add };
}

describe('the compaction control', () => {
  it('compacts before a request over the point to half the prompt; undo sends everything again, compacted again only when it does not fit', async () => {
    const { control, tracker, add } = setup();
    for (let i = 0; i < 41; i++) add({ role: i % 2 ? 'assistant' : 'user', content: text(`topic ${i}`, 6) });
    const before = tracker.total();
    expect(before).toBeGreaterThan(control.budgets(settings).point);
    await control.beforeRequest(settings);
    expect(control.rounds).toHaveLength(1);
    expect(tracker.total()).toBeLessThanOrEqual(before / 2);
    expect(control.blocker(true, settings)).toMatch(/Wait for the reply/);

    control.undo();
    expect(control.rounds).toHaveLength(0);
    expect(tracker.total()).toBe(before);
    // Not held: the undone prompt and its reply reserve do not fit the window, so the next
    // request compacts again (a hold only keeps a prompt that fits).
    await control.beforeRequest(settings);
    expect(control.rounds).toHaveLength(1);
  });

  it('compacts inside a tool loop and keeps the request sent; a new request releases it', async () => {
    const { control, tracker, messages, add } = setup();
    const task = add({ role: 'user', content: 'Read all the files and report.' });
    for (let i = 0; i < 12; i++) {
      add({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'read_note', arguments: `{"path":"f${i}.md"}` }] });
      add({ role: 'tool', toolCallId: `c${i}`, content: text(`file ${i}`, 20) });
    }
    await control.beforeRequest(settings);
    expect(control.rounds).toHaveLength(1);
    const sent = control.sent(messages, (m) => m.role === 'user');
    expect(sent[0]).toBe(task);
    expect(control.rounds[0]?.record.removedIds).toContain(task.id);
    expect(tracker.has(task.id)).toBe(true);

    add({ role: 'assistant', content: 'Done.' });
    const next = add({ role: 'user', content: 'Thanks, and now?' });
    expect(tracker.has(task.id)).toBe(false);
    expect(control.sent(messages, (m) => m.role === 'user')).not.toContain(task);
    expect(control.sent(messages, (m) => m.role === 'user')).toContain(next);
  });

  it('says exactly why "Compact now" cannot run', () => {
    const { control, add } = setup();
    expect(control.blocker(false, settings)).toMatch(/empty/);
    add({ role: 'user', content: 'Hello?' });
    expect(control.blocker(false, settings)).toMatch(/only the latest message is sent/);
    add({ role: 'assistant', content: 'Hi.' });
    expect(control.blocker(false, settings)).toMatch(/only the latest exchange is sent/);
    add({ role: 'user', content: 'More?' });
    expect(control.blocker(false, settings)).toBeNull();
  });
});
