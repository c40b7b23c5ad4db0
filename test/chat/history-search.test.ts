// The search_history tool through a real session and a loopback Ollama server: offered only once
// messages are no longer sent, answering from their original text, its result sent back.
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_LINE, HISTORY_MIN_CHARS, SEARCH_HISTORY } from '../../src/core/search-history';
import { type Harness, harnessPool, ollamaReply, ollamaToolCalls, systemOf } from './helpers/harness';

const pool = harnessPool();
afterEach(pool.closeAll);

const BAKERY = 'For bread, I recommended the Bluebird bakery on Cooper Lane; their rye is the best in town.';
const filler = (topic: string): string => `Let us plan ${topic}. ${`We should weigh the options for ${topic} carefully and write them down. `.repeat(8)}`;

interface ToolBody {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string }[];
}
const toolNames = (h: Harness, i: number): string[] => ((h.bodies()[i] as unknown as ToolBody | undefined)?.tools ?? []).map((t) => t.function.name);

async function converse(h: Harness): Promise<void> {
  const turns = [BAKERY, filler('the garden'), filler('the trip'), filler('the budget'), filler('the party'), filler('the move')];
  for (const turn of turns) {
    h.server.on('POST', '/api/chat', ollamaReply(`Noted: ${turn.slice(0, 40)}`));
    await h.session.send(turn);
  }
}

describe('search_history', () => {
  it('is not offered before any compaction', async () => {
    const h = await pool.start({ systemPrompt: 'Be brief.', ollamaContextSize: 32_768 });
    await converse(h);
    expect(h.bodies().every((_, i) => !toolNames(h, i).includes(SEARCH_HISTORY))).toBe(true);
    expect(h.bodies().every((b) => !systemOf(b).includes(HISTORY_LINE))).toBe(true);
  });

  it('is not offered in a window under 4k, where its definition would take the room compaction made', async () => {
    const h = await pool.start({ systemPrompt: 'Be brief.', keepExchanges: 1, ollamaContextSize: 2_048 });
    await converse(h);
    const compacted = await h.session.compactNow();
    expect(compacted.kind).toBe('compacted');
    // Enough was compacted to offer it in a bigger window: the window is what withholds it.
    const removed = new Set(compacted.kind === 'compacted' ? compacted.state.record.removedIds : []);
    const chars = h.session.messages.filter((m) => removed.has(m.id)).reduce((n, m) => n + m.content.length, 0);
    expect(chars).toBeGreaterThanOrEqual(HISTORY_MIN_CHARS);
    h.server.on('POST', '/api/chat', ollamaReply('Noted.'));
    await h.session.send('Which bakery did I recommend?');
    const last = h.bodies().length - 1;
    expect(toolNames(h, last)).not.toContain(SEARCH_HISTORY);
    expect(systemOf(h.bodies()[last])).not.toContain(HISTORY_LINE);
  });

  it('after a compaction (in a 4k window too): offered, returns the compacted message verbatim, and the next request carries the result', async () => {
    const h = await pool.start({ systemPrompt: 'Be brief.', keepExchanges: 1, ollamaContextSize: 4_096 });
    await converse(h);
    expect((await h.session.compactNow()).kind).toBe('compacted');
    const sentBefore = h.bodies().length;

    h.server.on('POST', '/api/chat', ollamaToolCalls({ name: SEARCH_HISTORY, arguments: { query: 'which bakery did you recommend' } }), ollamaReply('Bluebird, on Cooper Lane.'));
    await h.session.send('Which bakery did I recommend?');

    // The request after the compaction offers the tool and its block says so.
    expect(toolNames(h, sentBefore)).toContain(SEARCH_HISTORY);
    expect(systemOf(h.bodies()[sentBefore])).toContain(HISTORY_LINE);
    // The bakery message is no longer sent as a message…
    expect(h.bodies()[sentBefore]?.messages.some((m) => m.content === BAKERY)).toBe(false);
    // …but the tool result quotes it whole, with who said it and its id.
    const result = h.session.messages.find((m) => m.role === 'tool');
    const original = h.session.messages.find((m) => m.content === BAKERY);
    expect(result?.content).toContain(BAKERY);
    expect(result?.content).toContain(`[id ${original?.id} · user`);
    // The continuation carries the result to the model.
    const next = h.bodies()[sentBefore + 1] as unknown as ToolBody;
    expect(next.messages.some((m) => m.role === 'tool' && m.content.includes(BAKERY))).toBe(true);
  });

  it('answers a follow-up for the messages around an id, and says what it searched when nothing matches', async () => {
    const h = await pool.start({ systemPrompt: 'Be brief.', keepExchanges: 1, ollamaContextSize: 32_768 });
    await converse(h);
    await h.session.compactNow();
    const original = h.session.messages.find((m) => m.content === BAKERY);
    h.server.on(
      'POST',
      '/api/chat',
      ollamaToolCalls({ name: SEARCH_HISTORY, arguments: { around: original?.id } }, { name: SEARCH_HISTORY, arguments: { query: 'zeppelin' } }),
      ollamaReply('Done.'),
    );
    await h.session.send('What came right after that?');
    const results = h.session.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toContain(BAKERY);
    expect(results[0]).toContain('Noted: For bread');
    expect(results[1]).toMatch(/^No earlier message matches "zeppelin" \(searched \d+ compacted messages\)/);
  });

  it('is withdrawn again by an undo', async () => {
    const h = await pool.start({ systemPrompt: 'Be brief.', keepExchanges: 1, ollamaContextSize: 32_768 });
    await converse(h);
    await h.session.compactNow();
    h.session.undoLastCompaction();
    h.server.on('POST', '/api/chat', ollamaReply('Fine.'));
    await h.session.send('Go on.');
    const last = h.bodies().length - 1;
    expect(toolNames(h, last)).not.toContain(SEARCH_HISTORY);
    expect(systemOf(h.bodies()[last])).not.toContain(HISTORY_LINE);
  });
});
