// Ollama wire-format replies for the harness's loopback provider: builders the e2e suite scripts
// with, and the "demo model" that answers when nothing is scripted (so `npm run harness` can be
// chatted with without a real model).
import { ndjson, type Scripted } from '../test/providers/helpers/server';

export const HARNESS_MODEL = 'harness-demo';

const line = (content: string, model: string) => ({ model, message: { role: 'assistant', content }, done: false });
const final = (model: string, promptEvalCount: number, evalCount: number) => ({
  model,
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: promptEvalCount,
  eval_count: evalCount,
});

export interface ReplyOptions {
  /** Delay before each chunk (ms). */
  delayMs?: number;
  /** The prompt size the "server" reports (anchors the plugin's token tracker). */
  promptEvalCount?: number;
  model?: string;
}

/** Splits text into word-sized tokens (a word and the whitespace after it). */
export function tokens(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

/** A streamed /api/chat reply, one NDJSON line per word-sized token, then the final line. */
export function ollamaReply(text: string, options: ReplyOptions = {}): Scripted {
  const model = options.model ?? HARNESS_MODEL;
  const words = tokens(text);
  return {
    headers: { 'content-type': 'application/x-ndjson' },
    chunks: ndjson(...words.map((w) => line(w, model)), final(model, options.promptEvalCount ?? 0, words.length)),
    delayMs: options.delayMs ?? 0,
  };
}

/** A reply that streams `text` slowly and then stays open until the client leaves (to stop it). */
export function endlessReply(text: string, delayMs = 30): Scripted {
  return {
    headers: { 'content-type': 'application/x-ndjson' },
    chunks: ndjson(...tokens(text).map((w) => line(w, HARNESS_MODEL))),
    delayMs,
    holdOpen: true,
  };
}

/** GET /api/tags: the models the server offers. */
export function tagsReply(models: string[] = [HARNESS_MODEL]): Scripted {
  return {
    headers: { 'content-type': 'application/json' },
    chunks: [JSON.stringify({ models: models.map((name) => ({ name, model: name, size: 0, digest: '', modified_at: '2026-11-01T00:00:00Z' })) })],
  };
}

interface ChatBody {
  messages?: { role?: string; content?: string }[];
}

/**
 * What the demo model answers when nothing is scripted: a short Markdown reply that quotes the
 * question, links a note and shows code, streamed word by word; "long" in the question gives a
 * long, slow reply (something to stop).
 */
export function demoResponse(method: string, path: string, body: string): Scripted | null {
  if (method === 'GET' && path === '/api/tags') return tagsReply();
  if (method !== 'POST' || path !== '/api/chat') return null;
  let parsed: ChatBody = {};
  try {
    parsed = JSON.parse(body) as ChatBody;
  } catch {
    // fall through with no messages
  }
  const messages = parsed.messages ?? [];
  const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const firstLine = question.split('\n')[0]?.slice(0, 120) ?? '';
  const promptChars = messages.reduce((n, m) => n + (m.content?.length ?? 0), 0);
  if (/\blong\b/i.test(question)) {
    const paragraph = 'The harness demo model keeps talking so that you can press **Stop** mid-sentence. ';
    return { ...ollamaReply(paragraph.repeat(40), { delayMs: 40, promptEvalCount: Math.ceil(promptChars / 4) }) };
  }
  const text = [
    `You asked: *${firstLine || '(nothing)'}*.`,
    '',
    `I am the **harness demo model**, not a real one. The garden plan is in [[Projects/Garden redesign]], and the meeting notes are in [[会议记录]].`,
    '',
    '```ts',
    "const answer = 'scripted';",
    '```',
    '',
    `This conversation has ${messages.length} messages in the request.`,
  ].join('\n');
  return ollamaReply(text, { delayMs: 12, promptEvalCount: Math.ceil(promptChars / 4) });
}
