// Message conversion per provider, checked against each API's documented rules, with the cases
// our conversations produce: orphan results, calls without results, interleaving, invalid JSON.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages';
import { anthropicPayload, CONTINUATION_OPENER } from '../../src/providers/anthropic-format';
import { ollamaMessages } from '../../src/providers/ollama-format';
import { openaiMessages } from '../../src/providers/openai-format';
import { MISSING_RESULT, pairTurns } from '../../src/providers/pairing';
import type { ChatRequest } from '../../src/providers/types';

let n = 0;
const user = (content: string): ChatMessage => ({ id: `u${++n}`, createdAt: 0, role: 'user', content });
const assistant = (content: string, ...calls: [string, string, string?][]): ChatMessage => ({
  id: `a${++n}`,
  createdAt: 0,
  role: 'assistant',
  content,
  ...(calls.length ? { toolCalls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? '{}' })) } : {}),
});
const result = (toolCallId: string, content: string, name?: string): ChatMessage => ({
  id: `t${++n}`,
  createdAt: 0,
  role: 'tool',
  toolCallId,
  content,
  ...(name ? { name } : {}),
});
const req = (messages: ChatMessage[], systemPrompt = ''): ChatRequest => ({ model: 'm', systemPrompt, messages, contextWindow: 8192 });

describe('pairing', () => {
  it('an orphan tool result becomes labelled user text, never a tool message', () => {
    const messages = [user('Hi'), result('gone', 'The note text', 'read_note'), user('Go on')];
    const turns = pairTurns(messages);
    expect(turns.map((t) => t.kind)).toEqual(['user', 'user', 'user']);
    expect(turns[1]).toMatchObject({ kind: 'user' });
    const text = (turns[1] as { text: string }).text;
    expect(text).toContain('read_note');
    expect(text).toContain('The note text');
    expect(openaiMessages(req(messages)).some((m) => m.role === 'tool')).toBe(false);
    expect(ollamaMessages(req(messages)).some((m) => m.role === 'tool')).toBe(false);
    const anthropic = anthropicPayload(req(messages)).messages;
    expect(anthropic).toHaveLength(1);
    expect(anthropic[0]!.content.every((b) => b.type === 'text')).toBe(true);
  });

  it('a call without a result gets an error result so the request stays valid', () => {
    const messages = [user('Read'), assistant('', ['c1', 'read_note']), user('Never mind')];
    expect(openaiMessages(req(messages))).toEqual([
      { role: 'user', content: 'Read' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_note', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: `Error: ${MISSING_RESULT}` },
      { role: 'user', content: 'Never mind' },
    ]);
  });

  it('results interleaved with a user message are moved next to their calls, in call order', () => {
    const messages = [user('Two notes'), assistant('', ['c1', 'read_note'], ['c2', 'read_note']), result('c2', 'B'), user('Hurry'), result('c1', 'A')];
    expect(openaiMessages(req(messages)).map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : m.role))).toEqual([
      'user',
      'assistant',
      'tool:c1',
      'tool:c2',
      'user',
    ]);
  });

  it('a second result for the same call travels as text', () => {
    const messages = [user('x'), assistant('', ['c1', 'search']), result('c1', 'first'), result('c1', 'second')];
    const out = openaiMessages(req(messages));
    expect(out.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(out[out.length - 1]).toMatchObject({ role: 'user' });
  });
});

describe('Anthropic conversion', () => {
  it('system messages join the top-level system prompt; none stay in messages', () => {
    const { system, messages } = anthropicPayload(req([user('a'), { id: 's', createdAt: 0, role: 'system', content: 'Be terse.' }, user('b')], 'Base.'));
    expect(system).toBe('Base.\n\nBe terse.');
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
  });

  it('merges consecutive same-role messages and drops empty text blocks', () => {
    const { messages } = anthropicPayload(req([user('q'), assistant('one'), assistant(''), assistant('two'), user('')]));
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] },
    ]);
  });

  it('a conversation that opens with the assistant (after compaction) gets a neutral user opener', () => {
    const { messages } = anthropicPayload(req([assistant('Earlier answer'), user('Next question')]));
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: CONTINUATION_OPENER }] });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('consecutive tool results from several assistant turns each sit in the user message after their call', () => {
    const messages = [user('go'), assistant('', ['c1', 'a']), result('c1', 'r1'), assistant('', ['c2', 'b']), result('c2', 'r2'), result('stray', 'orphan')];
    const out = anthropicPayload(req(messages)).messages;
    expect(out.map((m) => [m.role, m.content.map((b) => b.type).join('+')])).toEqual([
      ['user', 'text'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result+text'],
    ]);
  });

  it('a final assistant prefill loses trailing whitespace', () => {
    const { messages } = anthropicPayload(req([user('q'), assistant('Partial answer \n')]));
    expect(messages[1]!.content).toEqual([{ type: 'text', text: 'Partial answer' }]);
  });
});

describe('invalid tool-call arguments', () => {
  const messages = [user('x'), assistant('', ['c1', 'search', '{"q": ']), result('c1', 'bad')];
  it('Ollama and Anthropic send {} (they require an object); OpenAI the raw text', () => {
    expect(ollamaMessages(req(messages))[1]).toMatchObject({ tool_calls: [{ function: { name: 'search', arguments: {} } }] });
    expect(anthropicPayload(req(messages)).messages[1]!.content[0]).toEqual({ type: 'tool_use', id: 'c1', name: 'search', input: {} });
    expect(openaiMessages(req(messages))[1]).toMatchObject({ tool_calls: [{ function: { arguments: '{"q": ' } }] });
  });
});
