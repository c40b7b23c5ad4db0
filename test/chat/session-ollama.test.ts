// Ollama's context size as the session uses it, against a real loopback server: the body carries
// the configured num_ctx (not the model's maximum), the meter and the compaction point use it, and
// a server that silently truncates the prompt (a far smaller prompt_eval_count than what was sent)
// produces a warning instead of anchoring the count on it.
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/providers/ollama';
import { testTransport } from '../providers/helpers/events';
import { type Harness, ollamaReply, startHarness } from './helpers/harness';

let h: Harness;
afterEach(async () => {
  h.session.dispose();
  await h.close();
});

const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 50}`).join(' ');

describe('the Ollama context size', () => {
  it('is sent as num_ctx and is the window of the meter and the compaction point', async () => {
    h = await startHarness({ ollamaContextSize: 6000 });
    h.server.on('POST', '/api/chat', ollamaReply('Hello.'));
    await h.session.send('Hi');
    expect(h.bodies()[0]?.options.num_ctx).toBe(6000);
    const meter = h.session.meter();
    expect(meter.window).toBe(6000);
    expect(meter.compactionPoint).toBeLessThan(6000);
  });

  it('warns when the server truncated the prompt, and does not anchor the count on its figure', async () => {
    h = await startHarness({ ollamaContextSize: 2048, vaultTools: false });
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
    h = await startHarness({ ollamaContextSize: 8192, vaultTools: false });
    h.server.on('POST', '/api/chat', ollamaReply('One.', { promptEvalCount: 5 }), ollamaReply('Two.', { promptEvalCount: 5 }));
    await h.session.send(words(300));
    await h.session.send(words(300));
    expect(h.session.entries.some((e) => e.kind === 'notice' && e.level === 'warning')).toBe(false);
  });
});

describe('the model maximum from /api/show', () => {
  it('reads <architecture>.context_length, and null when the server does not say', async () => {
    h = await startHarness();
    h.server.on(
      'POST',
      '/api/show',
      { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } })] },
      { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ details: {} })] },
    );
    const provider = new OllamaProvider({ baseUrl: h.server.url, transport: testTransport().transport });
    await expect(provider.modelContextLength('llama3.1:8b')).resolves.toBe(131072);
    expect(JSON.parse(h.server.to('/api/show')[0]?.body ?? '{}')).toEqual({ model: 'llama3.1:8b' });
    await expect(provider.modelContextLength('llama3.1:8b')).resolves.toBeNull();
  });
});
