// The count of what is sent (tracker-sync.ts), through the session and a real loopback server:
// the tracker is re-anchored on the usage the provider reports, except on an Ollama figure below
// its own estimate (cached tokens may be left out) and on a prompt the server cut (a far smaller
// prompt_eval_count than what was sent, over the context size), which is warned about instead.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isTruncation } from '../../src/chat/tracker-sync';
import { harnessPool, ollamaReply } from './helpers/harness';

const pool = harnessPool();
afterEach(pool.closeAll);

const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 50}`).join(' ');

describe('usage the provider reports', () => {
  it('re-anchors the tracker on the usage the provider reports', async () => {
    const h = await pool.start();
    h.server.on('POST', '/api/chat', ollamaReply('Fine.', { promptEvalCount: 900 }));
    await h.session.send('How are you?');
    const meter = h.session.meter();
    expect(meter.reported).toBe(900);
    expect(meter.anchored).toBe(true);
    expect(meter.used).toBeGreaterThanOrEqual(900);
    expect(meter.used).toBeLessThan(900 + 40);
  });

  it('does not anchor on an Ollama figure below its own estimate (cached tokens may be left out)', async () => {
    const h = await pool.start();
    h.server.on('POST', '/api/chat', ollamaReply('Fine.', { promptEvalCount: 3 }));
    await h.session.send('How are you?');
    expect(h.session.meter().reported).toBe(3);
    expect(h.session.meter().anchored).toBe(false);
  });
});

describe('a prompt the server cut', () => {
  it('warns when the server truncated the prompt, and does not anchor the count on its figure', async () => {
    const h = await pool.start({ ollamaContextSize: 2048, vaultTools: false });
    // The server read 1,000 tokens of a prompt several times the context size: it cut the front.
    h.server.on('POST', '/api/chat', ollamaReply('Partial answer.', { promptEvalCount: 1000 }));
    const paste = words(4000);
    expect((await h.session.send(paste)).kind).toBe('oversized');
    await h.session.send(paste, { oversized: 'send' });
    const warnings = h.session.entries.flatMap((e) => (e.kind === 'notice' && e.level === 'warning' ? [e.text] : []));
    // The oversized message could not be compacted around, and the server then cut it.
    expect(warnings[0]).toMatch(/Nothing to compact: only the latest request is sent/);
    expect(warnings[1]).toMatch(/server cut the prompt: it read 1,000 of about [\d,]+ tokens \(context size 2,048\)/);
    const meter = h.session.meter();
    expect(meter.anchored).toBe(false);
    expect(meter.reported).toBeNull();
    expect(meter.used).toBeGreaterThan(2048);
  });

  it('is not mistaken for truncation when the prompt fit (a cached prefix lowers the count)', async () => {
    const h = await pool.start({ ollamaContextSize: 8192, vaultTools: false });
    h.server.on('POST', '/api/chat', ollamaReply('One.', { promptEvalCount: 5 }), ollamaReply('Two.', { promptEvalCount: 5 }));
    await h.session.send(words(300));
    await h.session.send(words(300));
    expect(h.session.entries.some((e) => e.kind === 'notice' && e.level === 'warning')).toBe(false);
  });

  it('is a report under three quarters of an estimate over the window, and never a prompt that fit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 500_000 }), (reported, estimated, window) => {
        const cut = isTruncation(reported, estimated, window);
        if (estimated <= window) expect(cut).toBe(false);
        if (reported >= estimated) expect(cut).toBe(false);
      }),
    );
    expect(isTruncation(1000, 9000, 2048)).toBe(true);
    expect(isTruncation(5, 400, 8192)).toBe(false);
  });
});
