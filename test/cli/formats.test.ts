import { describe, expect, it } from 'vitest';
import { MessageFormatError, type ChatMessage } from '../../src/core';
import { serializeConversation } from '../../src/chat/conversation-format';
import { detectFormat, convert, fromAnthropic, fromChatGPTExport, fromClaudeExport, fromOpenAI, fromPluginNote } from '../../src/cli/formats';

const only = (conversations: { messages: ChatMessage[] }[]): ChatMessage[] => {
  expect(conversations).toHaveLength(1);
  return (conversations[0] as { messages: ChatMessage[] }).messages;
};

describe('OpenAI messages', () => {
  it('converts strings, part arrays, tool calls and tool results; developer is system; times stay 0', () => {
    const messages = only(
      fromOpenAI([
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is in' }, { type: 'text', text: 'this picture?' }, { type: 'image_url', image_url: { url: 'https://x.org/a.png' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_note', arguments: '{"path":"A.md"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'note text' }] },
        { role: 'assistant', content: 'Done.' },
      ]),
    );
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(messages.every((m) => m.createdAt === 0)).toBe(true);
    expect(messages[1]).toMatchObject({ content: 'What is in\n\nthis picture?', images: [{ mediaType: 'image/png', source: 'https://x.org/a.png' }] });
    expect(messages[2]).toMatchObject({ content: '', toolCalls: [{ id: 'call_1', name: 'read_note', arguments: '{"path":"A.md"}' }] });
    expect(messages[3]).toMatchObject({ role: 'tool', toolCallId: 'call_1', content: 'note text' });
    expect(new Set(messages.map((m) => m.id)).size).toBe(5);
  });

  it('keeps data: URLs out of the image source and takes their media type', () => {
    const [user] = only(fromOpenAI([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } }] }]));
    expect(user).toMatchObject({ role: 'user', images: [{ mediaType: 'image/jpeg' }] });
    expect((user as { images: { source?: string }[] }).images[0]?.source).toBeUndefined();
  });

  it('turns the legacy function_call / role function pair into a tool call and its result', () => {
    const messages = only(
      fromOpenAI([
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        { role: 'function', name: 'get_weather', content: '-3 °C' },
      ]),
    );
    const call = messages[1] as Extract<ChatMessage, { role: 'assistant' }>;
    expect(call.toolCalls?.[0]).toMatchObject({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: call.toolCalls?.[0]?.id, name: 'get_weather' });
  });

  it('reads a request body {model, messages} and keeps the model', () => {
    const [c] = fromOpenAI({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(c?.model).toBe('gpt-4o');
  });

  it('names the path of an unknown role, a tool message without its call id, and bad content', () => {
    expect(() => fromOpenAI([{ role: 'user', content: 'a' }, { role: 'robot', content: 'b' }])).toThrow(/\$\[1\]\.role: unknown role "robot"/);
    expect(() => fromOpenAI([{ role: 'tool', content: 'x' }])).toThrow(/\$\[0\]\.tool_call_id: is missing/);
    expect(() => fromOpenAI({ messages: [{ role: 'user', content: 42 }] })).toThrow(MessageFormatError);
    expect(() => fromOpenAI({ messages: [{ role: 'user', content: 42 }] })).toThrow(/\$\.messages\[0\]\.content/);
  });
});

describe('Anthropic messages', () => {
  it('splits tool_result blocks out of a user turn, before what the user wrote', () => {
    const messages = only(
      fromAnthropic({
        model: 'claude-sonnet-4-5',
        system: [{ type: 'text', text: 'Be kind.' }],
        messages: [
          { role: 'user', content: 'Read my note.' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'private', signature: 'x' },
              { type: 'text', text: 'Reading.' },
              { type: 'tool_use', id: 'toolu_1', name: 'read_note', input: { path: 'A.md' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'the note' }] },
              { type: 'text', text: 'Summarise it.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: 'failed' }] },
        ],
      }),
    );
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'tool']);
    expect(messages[2]).toMatchObject({ content: 'Reading.', toolCalls: [{ id: 'toolu_1', name: 'read_note', arguments: '{"path":"A.md"}' }] });
    expect(messages[3]).toMatchObject({ toolCallId: 'toolu_1', content: 'the note' });
    expect(messages[4]).toMatchObject({ content: 'Summarise it.', images: [{ mediaType: 'image/png' }] });
    expect(messages[5]).toMatchObject({ toolCallId: 'toolu_2', isError: true, content: 'failed' });
    expect(JSON.stringify(messages)).not.toContain('private');
  });

  it('names the path of an unknown role', () => {
    expect(() => fromAnthropic([{ role: 'human', content: 'hi' }])).toThrow(/\$\[0\]\.role: unknown role "human"/);
  });
});

const node = (id: string, parent: string | null, children: string[], message: Record<string, unknown> | null) => ({ id, parent, children, message });
const msg = (id: string, role: string, text: string, t: number | null, extra: Record<string, unknown> = {}) => ({
  id,
  author: { role, name: extra.name ?? null, metadata: {} },
  create_time: t,
  content: extra.content ?? { content_type: 'text', parts: [text] },
  metadata: extra.metadata ?? {},
  recipient: extra.recipient ?? 'all',
});

describe('ChatGPT export', () => {
  const exportData = [
    {
      title: 'Branches',
      conversation_id: 'conv-1',
      current_node: 'a2',
      default_model_slug: 'gpt-4o',
      mapping: {
        root: node('root', null, ['sys'], null),
        sys: node('sys', 'root', ['u1'], msg('sys', 'system', '', null, { metadata: { is_visually_hidden_from_conversation: true } })),
        u1: node('u1', 'sys', ['a1'], msg('u1', 'user', 'First question', 1700000000.25)),
        a1: node('a1', 'u1', ['u2old', 'u2'], msg('a1', 'assistant', 'First answer', 1700000001)),
        u2old: node('u2old', 'a1', ['a2old'], msg('u2old', 'user', 'Abandoned edit', 1700000002)),
        a2old: node('a2old', 'u2old', [], msg('a2old', 'assistant', 'Abandoned answer', 1700000003)),
        u2: node('u2', 'a1', ['think'], msg('u2', 'user', 'Run some code', 1700000004)),
        think: node('think', 'u2', ['code'], msg('think', 'assistant', '', 1700000005, { content: { content_type: 'thoughts', thoughts: [] } })),
        code: node('code', 'think', ['out'], msg('code', 'assistant', '', 1700000006, { recipient: 'python', content: { content_type: 'code', language: 'python', text: 'print(2+2)' } })),
        out: node('out', 'code', ['a2'], msg('out', 'tool', '', 1700000007, { name: 'python', content: { content_type: 'execution_output', text: '4' } })),
        a2: node('a2', 'out', [], msg('a2', 'assistant', 'It prints 4.', 1700000008)),
      },
    },
  ];

  it('follows current_node up to the root, skips hidden and reasoning nodes, pairs tool output with its call', () => {
    const [c] = fromChatGPTExport(exportData);
    expect(c).toMatchObject({ id: 'conv-1', title: 'Branches', model: 'gpt-4o' });
    const messages = c?.messages ?? [];
    expect(messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'code', 'out', 'a2']);
    expect(messages[0]?.createdAt).toBe(1700000000250);
    const call = messages[3] as Extract<ChatMessage, { role: 'assistant' }>;
    expect(call.toolCalls?.[0]).toMatchObject({ name: 'python', arguments: JSON.stringify({ input: 'print(2+2)' }) });
    expect(messages[4]).toMatchObject({ role: 'tool', toolCallId: call.toolCalls?.[0]?.id, content: '4', name: 'python' });
    expect(JSON.stringify(messages)).not.toContain('Abandoned');
  });

  it('names the path of an unknown author role', () => {
    const bad = { mapping: { r: node('r', null, [], msg('r', 'wizard', 'x', 1)) }, current_node: 'r' };
    expect(() => fromChatGPTExport([bad])).toThrow(/\$\[0\]\.mapping\["r"\]\.message\.author\.role: unknown role "wizard"/);
  });
});

describe('Claude.ai export', () => {
  it('reads chat_messages (text or content blocks, attachments, files), ISO times, server-side tools', () => {
    const [c, empty] = fromClaudeExport([
      {
        uuid: 'c1',
        name: 'Templates',
        chat_messages: [
          { uuid: 'h1', sender: 'human', text: 'Here is my template', content: [], created_at: '2025-02-03T18:02:12.118Z', attachments: [{ file_name: 'T.md', extracted_content: '# T' }], files: [{ file_name: 'shot.png' }] },
          {
            uuid: 'a1',
            sender: 'assistant',
            created_at: '2025-02-03T18:02:31.550Z',
            text: 'ignored when content has blocks',
            content: [
              { type: 'text', text: 'Searching.' },
              { type: 'tool_use', name: 'web_search', input: { query: 'templater' } },
              { type: 'tool_result', name: 'web_search', content: [{ type: 'knowledge', title: 'Docs', url: 'https://example.org', text: 'tp.date.now' }] },
              { type: 'text', text: 'Found it.' },
            ],
          },
        ],
      },
      { uuid: 'c2', name: '', chat_messages: [] },
    ]);
    const messages = c?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[0]).toMatchObject({ id: 'h1', createdAt: Date.parse('2025-02-03T18:02:12.118Z'), images: [{ mediaType: 'image/png', source: 'shot.png' }] });
    expect(messages[0]?.content).toBe('Here is my template\n\n[attachment: T.md]\n# T');
    const call = messages[1] as Extract<ChatMessage, { role: 'assistant' }>;
    expect(call.toolCalls?.[0]).toMatchObject({ name: 'web_search', arguments: '{"query":"templater"}' });
    expect(messages[2]).toMatchObject({ toolCallId: call.toolCalls?.[0]?.id, content: 'Docs — https://example.org\ntp.date.now' });
    expect(messages[3]?.content).toBe('Found it.');
    expect(new Set(messages.map((m) => m.id)).size).toBe(4);
    expect(empty?.messages).toEqual([]);
  });

  it('follows the current leaf when messages name their parents', () => {
    const root = '00000000-0000-4000-8000-000000000000';
    const [c] = fromClaudeExport([
      {
        uuid: 'c',
        current_leaf_message_uuid: 'a2',
        chat_messages: [
          { uuid: 'h1', sender: 'human', text: 'Q', parent_message_uuid: root },
          { uuid: 'a1', sender: 'assistant', text: 'old answer', parent_message_uuid: 'h1' },
          { uuid: 'a2', sender: 'assistant', text: 'retried answer', parent_message_uuid: 'h1' },
        ],
      },
    ]);
    expect(c?.messages.map((m) => m.content)).toEqual(['Q', 'retried answer']);
    expect(c?.messages.every((m) => m.createdAt === 0)).toBe(true);
  });

  it('names the path of an unknown sender', () => {
    expect(() => fromClaudeExport([{ uuid: 'c', chat_messages: [{ sender: 'system', text: 'x' }] }])).toThrow(/\$\[0\]\.chat_messages\[0\]\.sender: unknown sender "system"/);
  });
});

describe('detection and dispatch', () => {
  it('detects each format by shape', () => {
    expect(detectFormat([{ role: 'user', content: 'hi' }])).toBe('openai');
    expect(detectFormat([{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] }])).toBe('anthropic');
    expect(detectFormat({ system: 'x', messages: [{ role: 'user', content: 'hi' }] })).toBe('anthropic');
    expect(detectFormat({ model: 'gpt-4o', messages: [{ role: 'system', content: 'x' }] })).toBe('openai');
    expect(detectFormat([{ title: 't', mapping: {} }])).toBe('chatgpt');
    expect(detectFormat([{ uuid: 'u', chat_messages: [] }])).toBe('claude');
    expect(detectFormat({ hello: 'world' })).toBeNull();
    expect(detectFormat([1, 2, 3])).toBeNull();
    expect(detectFormat([{ content: 'no role' }])).toBeNull();
  });

  it('reads the plugin\'s saved conversation note: messages exactly, compaction records skipped', () => {
    const messages: ChatMessage[] = [
      { id: 'u1', createdAt: 1_795_163_400_000, role: 'user', content: 'Read [[Plan]] and tell me the budget.\n```ts\nconst x = 1;\n```' },
      { id: 'a1', createdAt: 1_795_163_460_000, role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_note', arguments: '{"path":"Plan.md"}' }] },
      { id: 't1', createdAt: 1_795_163_470_000, role: 'tool', toolCallId: 'c1', name: 'read_note', content: 'Budget: €900' },
      { id: 'a2', createdAt: 1_795_163_480_000, role: 'assistant', content: 'The budget is €900.' },
    ];
    const note = serializeConversation({
      id: 'conv-1',
      title: 'Budget',
      model: 'llama3.1:8b',
      created: 1_795_163_400_000,
      updated: 1_795_163_480_000,
      items: messages.map((message) => ({ kind: 'message' as const, message })),
    });
    expect(fromPluginNote(note)).toEqual([{ id: 'conv-1', title: 'Budget', model: 'llama3.1:8b', messages }]);
    expect(convert('plugin', note)[0]?.messages).toEqual(messages);
  });

  it('names the line when a saved note no longer parses', () => {
    const broken = '---\nid: "x"\ntitle: "T"\n---\n\n### Robot · 2026-11-20 08:30\nhello\n';
    expect(() => fromPluginNote(broken)).toThrow(MessageFormatError);
    expect(() => fromPluginNote(broken)).toThrow(/^line \d+: /);
  });

  it('makes duplicated message ids unique', () => {
    const [c] = convert('openai', [
      { id: 'x', role: 'user', content: 'a' },
      { id: 'x', role: 'assistant', content: 'b' },
    ]);
    expect(c?.messages.map((m) => m.id)).toEqual(['x', 'm2']);
    const [d] = convert('claude', [{ uuid: 'c', chat_messages: [{ uuid: 'm', sender: 'human', text: 'a' }, { uuid: 'm', sender: 'assistant', text: 'b' }] }]);
    expect(d?.messages.map((m) => m.id)).toEqual(['m', 'm-2']);
  });
});
