import { describe, expect, it } from 'vitest';
import { MessageFormatError, newMessageId, parseMessage, parseToolArguments } from '../../src/core/messages';

describe('parseMessage', () => {
  it('accepts every role and fills in a missing id and timestamp', () => {
    const m = parseMessage({ role: 'user', content: 'hi' });
    expect(m).toMatchObject({ role: 'user', content: 'hi' });
    expect(m.id).toBeTruthy();
    expect(typeof m.createdAt).toBe('number');
    expect(parseMessage({ role: 'tool', toolCallId: 'c1', content: 'r', isError: true })).toMatchObject({ toolCallId: 'c1', isError: true });
    expect(parseMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'n', arguments: { a: 1 } }] })).toMatchObject({
      toolCalls: [{ id: 'c', name: 'n', arguments: '{"a":1}' }],
    });
  });

  it('names the field when input is malformed', () => {
    expect(() => parseMessage({ role: 'robot', content: 'x' }, 'messages[3]')).toThrow('messages[3].role: unknown role "robot"');
    expect(() => parseMessage({ role: 'user', content: 42 })).toThrow('message.content: must be a string, got number');
    expect(() => parseMessage({ role: 'tool', content: 'x' })).toThrow('message.toolCallId: is missing');
    expect(() => parseMessage('nope')).toThrow(MessageFormatError);
    expect(() => parseMessage({ role: 'user', createdAt: 'yesterday' })).toThrow(/createdAt/);
    expect(() => parseMessage({ role: 'assistant', toolCalls: [{ id: 'c' }] })).toThrow('message.toolCalls[0].name: is missing');
  });
});

describe('helpers', () => {
  it('parses tool arguments, or says null when the model wrote broken JSON', () => {
    expect(parseToolArguments({ id: 'c', name: 'n', arguments: '{"path":"a.md"}' })).toEqual({ path: 'a.md' });
    expect(parseToolArguments({ id: 'c', name: 'n', arguments: '{"path":' })).toBeNull();
    expect(parseToolArguments({ id: 'c', name: 'n', arguments: '[1]' })).toBeNull();
  });
  it('makes unique ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, newMessageId));
    expect(ids.size).toBe(1000);
  });
});
