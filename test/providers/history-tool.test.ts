// The search_history definition reaches each wire format over real HTTP (a loopback server): the
// name, description and JSON schema the model needs, in each provider's documented shape.
import { describe, expect, it } from 'vitest';
import { HISTORY_TOOL_DEFINITION, SEARCH_HISTORY } from '../../src/core/search-history';
import { createProvider } from '../../src/providers';
import type { ProviderId } from '../../src/providers';
import { collect, testTransport } from './helpers/events';
import { ScriptedServer, sentJson } from './helpers/server';
import { serverPerTest } from './helpers/suite';

const cases: { id: ProviderId; path: string; base: (url: string) => string }[] = [
  { id: 'ollama', path: '/api/chat', base: (u) => u },
  { id: 'openai', path: '/v1/chat/completions', base: (u) => `${u}/v1` },
  { id: 'anthropic', path: '/v1/messages', base: (u) => u },
];

const expected: Record<ProviderId, unknown> = {
  ollama: [{ type: 'function', function: { name: SEARCH_HISTORY, description: HISTORY_TOOL_DEFINITION.description, parameters: HISTORY_TOOL_DEFINITION.parameters } }],
  openai: [{ type: 'function', function: { name: SEARCH_HISTORY, description: HISTORY_TOOL_DEFINITION.description, parameters: HISTORY_TOOL_DEFINITION.parameters } }],
  anthropic: [{ name: SEARCH_HISTORY, description: HISTORY_TOOL_DEFINITION.description, input_schema: HISTORY_TOOL_DEFINITION.parameters }],
};

describe('the search_history definition on the wire', () => {
  let server!: ScriptedServer;
  serverPerTest((s) => (server = s));

  for (const c of cases) {
    it(`reaches ${c.id}`, async () => {
      // The reply does not matter: a refusal ends the stream, the body is what is checked.
      server.on('POST', c.path, { status: 400, headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ error: { message: 'no' } })] });
      const provider = createProvider({ id: c.id, baseUrl: c.base(server.url), transport: testTransport().transport });
      await collect(
        provider.stream(
          { model: 'm', systemPrompt: 'Be brief.', messages: [{ id: 'u1', createdAt: 0, role: 'user', content: 'Which bakery?' }], tools: [HISTORY_TOOL_DEFINITION], contextWindow: 8000 },
          { apiKey: 'k' },
        ),
      );
      const body = sentJson(server.to(c.path)[0]);
      expect(body.tools).toEqual(expected[c.id]);
    });
  }
});
