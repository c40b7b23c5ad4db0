// The request body for Ollama's /api/chat: system prompt as the first message, tool calls with
// `function.arguments` as an object, results as role "tool" with `tool_name`, and `num_ctx`
// always set — Ollama otherwise runs with its small default window and silently drops the
// *front* of a longer prompt, which is where the standing instructions and the task live.
import { DEFAULT_CONTEXT_WINDOW } from '../core/models';
import type { ChatRequest } from './types';
import { pairTurns } from './pairing';
import { argumentsObject, objectSchema, resultText } from './tool-format';

interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
}

export function ollamaMessages(request: ChatRequest): OllamaMessage[] {
  const out: OllamaMessage[] = [];
  if (request.systemPrompt) out.push({ role: 'system', content: request.systemPrompt });
  for (const turn of pairTurns(request.messages)) {
    switch (turn.kind) {
      case 'system':
      case 'user':
        out.push({ role: turn.kind, content: turn.text });
        break;
      case 'assistant': {
        const message: OllamaMessage = { role: 'assistant', content: turn.text };
        if (turn.calls.length) {
          message.tool_calls = turn.calls.map((call) => ({ function: { name: call.name, arguments: argumentsObject(call) } }));
        }
        out.push(message);
        break;
      }
      case 'tool-results':
        for (const result of turn.results) {
          out.push({ role: 'tool', content: resultText(result.content, result.isError), tool_name: result.call.name });
        }
        break;
    }
  }
  return out;
}

export function ollamaBody(request: ChatRequest): Record<string, unknown> {
  // A window that is not a positive number (a settings bug) must still not leave Ollama on its
  // small default: use the core's conservative default instead.
  const window = Number.isFinite(request.contextWindow) && request.contextWindow > 0 ? Math.floor(request.contextWindow) : DEFAULT_CONTEXT_WINDOW;
  const options: Record<string, number> = { num_ctx: window };
  if (request.maxOutputTokens !== undefined) options.num_predict = request.maxOutputTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  const body: Record<string, unknown> = {
    model: request.model,
    messages: ollamaMessages(request),
    stream: true,
    options,
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: objectSchema(tool.parameters) },
    }));
  }
  return body;
}
