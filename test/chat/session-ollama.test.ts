// Ollama's context size as the session uses it, against a real loopback server: the body carries
// the configured num_ctx (not the model's maximum), and the meter and the compaction point use it.
// (A server that silently truncates the prompt: tracker-sync.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/providers/ollama';
import { testTransport } from '../providers/helpers/events';
import { type Harness, ollamaReply, startHarness } from './helpers/harness';

let h: Harness;
afterEach(async () => {
  h.session.dispose();
  await h.close();
});

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
