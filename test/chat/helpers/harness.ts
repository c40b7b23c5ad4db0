// A chat session wired to a real loopback server speaking Ollama's protocol, with an in-memory
// vault, for the chat layer's tests.
import { ChatSession } from '../../../src/chat/session';
import type { ToolRunner } from '../../../src/chat/tool-loop';
import type { PastConversations } from '../../../src/chat/past-conversations-tool';
import type { TransportOptions } from '../../../src/providers/transport';
import { type CompactChatSettings, DEFAULT_SETTINGS } from '../../../src/chat/settings';
import { MapNoteSource } from '../../../src/chat/vault-access';
import { createProvider } from '../../../src/providers';
import { testTransport } from '../../providers/helpers/events';
import { ndjson, type Scripted, ScriptedServer, sentJson } from '../../providers/helpers/server';

export interface Harness {
  server: ScriptedServer;
  session: ChatSession;
  settings: CompactChatSettings;
  notes: MapNoteSource;
  /** The JSON bodies the server received on /api/chat, in order. */
  bodies(): OllamaBody[];
  close(): Promise<void>;
}

export interface OllamaBody {
  model: string;
  messages: { role: string; content: string }[];
  options: { num_ctx: number };
}

export async function startHarness(overrides: Partial<CompactChatSettings> = {}, files: Record<string, string> = {}, options: { tools?: ToolRunner; transport?: TransportOptions; pastConversations?: PastConversations } = {}): Promise<Harness> {
  const server = await ScriptedServer.start();
  const settings: CompactChatSettings = { ...DEFAULT_SETTINGS, model: 'llama3.1:8b', baseUrl: server.url, ...overrides };
  const notes = new MapNoteSource(new Map(Object.entries(files)));
  const { transport } = testTransport(options.transport);
  let clock = 1_700_000_000_000;
  const session = new ChatSession({
    settings: () => settings,
    provider: (s) => createProvider({ id: s.provider, baseUrl: s.baseUrl, transport }),
    apiKey: () => undefined,
    notes,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.pastConversations ? { pastConversations: options.pastConversations } : {}),
    now: () => (clock += 1000),
  });
  return {
    server,
    session,
    settings,
    notes,
    bodies: () => server.to('/api/chat').map((r) => sentJson(r) as unknown as OllamaBody),
    close: () => server.close(),
  };
}

/** Harnesses started by a test file, closed after each test (`afterEach(harnesses.closeAll)`). */
export function harnessPool(): { start: typeof startHarness; closeAll: () => Promise<void> } {
  let open: Harness[] = [];
  return {
    start: async (...args) => {
      const h = await startHarness(...args);
      open.push(h);
      return h;
    },
    closeAll: async () => {
      for (const h of open) {
        h.session.dispose();
        await h.close();
      }
      open = [];
    },
  };
}

const line = (content: string) => ({ model: 'llama3.1:8b', message: { role: 'assistant', content }, done: false });
const final = (promptEvalCount: number) => ({
  model: 'llama3.1:8b',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: promptEvalCount,
  eval_count: 5,
});

/** A streamed Ollama reply, word by word. */
export function ollamaReply(text: string, options: { promptEvalCount?: number; delayMs?: number } = {}): Scripted {
  const words = text.match(/\S+\s*/g) ?? [];
  return { chunks: ndjson(...words.map(line), final(options.promptEvalCount ?? 10)), delayMs: options.delayMs ?? 1 };
}

/** A reply that asks for tool calls (Ollama sends them whole, arguments as objects). */
export function ollamaToolCalls(...calls: { name: string; arguments: Record<string, unknown> }[]): Scripted {
  return {
    chunks: ndjson(
      { model: 'llama3.1:8b', message: { role: 'assistant', content: '', tool_calls: calls.map((c) => ({ function: c })) }, done: false },
      { ...final(10), done_reason: 'stop' },
    ),
    delayMs: 1,
  };
}

/** A reply that streams `text` and then stays open (for stopping mid-stream). */
export function endlessReply(text: string): Scripted {
  return { chunks: ndjson(line(text)), holdOpen: true };
}

export function ollamaError(status: number, error: string): Scripted {
  return { status, headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ error })] };
}

/** The system message of a request body. */
export function systemOf(body: OllamaBody | undefined): string {
  return body?.messages.find((m) => m.role === 'system')?.content ?? '';
}

export const until = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
