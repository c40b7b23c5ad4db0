// Micro-compaction: before a full compaction, the bulky results of old tool calls (a whole note
// read twenty turns ago) are replaced in what is *sent* by a short placeholder naming the tool, its
// arguments and the size cleared. The call and its result stay paired (same ids, same order), so
// every provider still accepts the request; the stored transcript keeps the original.
import type { ChatMessage, ToolResultMessage } from './messages';
import { estimateTokens } from './tokens';
import { groupUnits } from './units';
import { truncateAtWord } from './text';

export interface MicroCompactOptions {
  /** Tool results in the last N units are left alone. */
  keepRecentUnits: number;
  /** Results shorter than this (estimated tokens) are not worth a placeholder. Default 200. */
  minTokens?: number;
  model?: string;
  /** Ids of messages the user pinned: sent verbatim, never replaced by a placeholder. */
  keep?: ReadonlySet<string>;
}

export interface MicroCompactResult {
  /** The messages to send: the same list, with old bulky tool results replaced. */
  messages: ChatMessage[];
  /** Ids of the tool results replaced. */
  clearedIds: string[];
  /** Estimated tokens saved. */
  tokensSaved: number;
}

/** The placeholder sent instead of a cleared result. */
export function toolResultPlaceholder(toolName: string, args: string, chars: number, tokens: number): string {
  const shownArgs = truncateAtWord(args.replace(/\s+/g, ' ').trim(), 160);
  return `[Old tool result cleared to save context: ${toolName}(${shownArgs}) returned ${chars.toLocaleString('en-US')} characters (about ${tokens.toLocaleString('en-US')} tokens). Call the tool again if you need it.]`;
}

export function microCompact(messages: readonly ChatMessage[], options: MicroCompactOptions): MicroCompactResult {
  const units = groupUnits(messages);
  const keepFrom = units.length - Math.max(0, options.keepRecentUnits);
  const minTokens = options.minTokens ?? 200;
  const out = [...messages];
  const clearedIds: string[] = [];
  let tokensSaved = 0;
  units.forEach((unit, u) => {
    if (u >= keepFrom || unit.kind !== 'assistant') return;
    const assistant = messages[unit.start];
    if (assistant?.role !== 'assistant') return;
    for (const i of unit.indices.slice(1)) {
      const result = messages[i];
      if (result?.role !== 'tool' || options.keep?.has(result.id)) continue;
      const tokens = estimateTokens(result.content, options.model);
      if (tokens < minTokens) continue;
      const call = assistant.toolCalls?.find((c) => c.id === result.toolCallId);
      const placeholder = toolResultPlaceholder(call?.name ?? result.name ?? 'tool', call?.arguments ?? '', result.content.length, tokens);
      const saved = tokens - estimateTokens(placeholder, options.model);
      if (saved <= 0) continue;
      const replaced: ToolResultMessage = { ...result, content: placeholder };
      out[i] = replaced;
      clearedIds.push(result.id);
      tokensSaved += saved;
    }
  });
  return { messages: out, clearedIds, tokensSaved };
}
