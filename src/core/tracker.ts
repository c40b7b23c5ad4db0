// The running prompt-size estimate of one conversation. Every change costs O(the message changed):
// per-message estimates are cached and a running total is kept. When the provider reports real
// usage, that figure anchors the total and only what came after it is estimated (hybrid counting).
import type { ChatMessage, Role, ToolDefinition } from './messages';
import {
  MESSAGE_OVERHEAD_TOKENS,
  REQUEST_OVERHEAD_TOKENS,
  estimateMessageTokens,
  estimateSystemPromptTokens,
  estimateToolDefinitionsTokens,
} from './message-tokens';

/** Usage a provider reported for one request, normalised by the provider layer. */
export interface UsageReport {
  /** Every token of the prompt, cached or not (Anthropic's input + cache read + cache write;
   * OpenAI's prompt_tokens; Ollama's prompt_eval_count). */
  promptTokens: number;
  /** Tokens of the reply. */
  completionTokens?: number;
}

export interface TokenBreakdown {
  /** Best estimate of the next prompt's size. */
  total: number;
  /** The pure estimate, ignoring any provider-reported anchor. */
  estimated: number;
  systemPrompt: number;
  tools: number;
  overhead: number;
  byRole: Record<Role, number>;
  /** The provider-reported prompt size the total is anchored on, if any. */
  anchorTokens: number | null;
  /** Tokens estimated on top of the anchor (messages appended since). */
  sinceAnchor: number;
}

interface Entry {
  seq: number;
  role: Role;
  tokens: number;
  /** Set when the provider measured this message (a reply's completion tokens). */
  measured: boolean;
}

interface Anchor {
  promptTokens: number;
  /** Highest sequence number covered by the reported prompt. */
  seq: number;
  /** What we estimated for the same prompt when the report arrived. */
  estimateAtAnchor: number;
}

export interface TokenTrackerOptions {
  model?: string;
  systemPrompt?: string;
  tools?: readonly ToolDefinition[];
}

export class TokenTracker {
  private model: string | undefined;
  private readonly entries = new Map<string, Entry>();
  private nextSeq = 0;
  private messagesTotal = 0;
  private readonly roleTotals: Record<Role, number> = { system: 0, user: 0, assistant: 0, tool: 0 };
  private systemPromptTokens = 0;
  private toolsTokens = 0;
  private anchor: Anchor | null = null;

  constructor(options: TokenTrackerOptions = {}) {
    this.model = options.model;
    this.systemPromptTokens = estimateSystemPromptTokens(options.systemPrompt ?? '', this.model);
    this.toolsTokens = estimateToolDefinitionsTokens(options.tools ?? [], this.model);
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Adds a message at the end of the conversation. O(message). */
  append(message: ChatMessage): void {
    if (this.entries.has(message.id)) throw new Error(`Message ${message.id} is already tracked`);
    const tokens = estimateMessageTokens(message, this.model);
    this.entries.set(message.id, { seq: this.nextSeq++, role: message.role, tokens, measured: false });
    this.add(message.role, tokens);
  }

  /** Re-estimates a message whose content changed (a streamed reply growing, an edit). O(message). */
  update(message: ChatMessage): void {
    const entry = this.entries.get(message.id);
    if (!entry) throw new Error(`Message ${message.id} is not tracked`);
    if (this.anchor && entry.seq <= this.anchor.seq) this.anchor = null;
    this.add(entry.role, -entry.tokens);
    entry.role = message.role;
    entry.tokens = estimateMessageTokens(message, this.model);
    entry.measured = false;
    this.add(entry.role, entry.tokens);
  }

  /** Removes a message (deleted, or no longer sent after compaction). O(1). */
  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (this.anchor && entry.seq <= this.anchor.seq) this.anchor = null;
    this.entries.delete(id);
    this.add(entry.role, -entry.tokens);
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.messagesTotal = 0;
    for (const role of Object.keys(this.roleTotals) as Role[]) this.roleTotals[role] = 0;
    this.anchor = null;
  }

  setSystemPrompt(systemPrompt: string): void {
    const tokens = estimateSystemPromptTokens(systemPrompt, this.model);
    if (tokens !== this.systemPromptTokens) this.anchor = null;
    this.systemPromptTokens = tokens;
  }

  setTools(tools: readonly ToolDefinition[]): void {
    const tokens = estimateToolDefinitionsTokens(tools, this.model);
    if (tokens !== this.toolsTokens) this.anchor = null;
    this.toolsTokens = tokens;
  }

  /** Changing model changes the tokenizer: every message is re-estimated (O(conversation), rare). */
  setModel(model: string | undefined, messages: readonly ChatMessage[], systemPrompt: string, tools: readonly ToolDefinition[]): void {
    this.model = model;
    this.clear();
    this.systemPromptTokens = estimateSystemPromptTokens(systemPrompt, model);
    this.toolsTokens = estimateToolDefinitionsTokens(tools, model);
    for (const message of messages) this.append(message);
  }

  /**
   * Anchors the total on what the provider reported for the request that ended with message
   * `throughId`. From then on the total is that figure plus estimates of later messages, until a
   * message the report covered is changed or removed. With `reply`, the reply's completion tokens
   * replace its estimate.
   */
  recordUsage(usage: UsageReport, throughId: string, reply?: { id: string }): void {
    const through = this.entries.get(throughId);
    if (!through || !Number.isFinite(usage.promptTokens) || usage.promptTokens <= 0) return;
    // Once per request: summing what follows the anchor is O(messages after it), usually 0–2.
    let after = 0;
    for (const entry of this.entries.values()) if (entry.seq > through.seq) after += entry.tokens;
    this.anchor = { promptTokens: usage.promptTokens, seq: through.seq, estimateAtAnchor: this.estimated() - after };
    if (reply && usage.completionTokens !== undefined && usage.completionTokens > 0) {
      const entry = this.entries.get(reply.id);
      if (entry && entry.seq > through.seq) {
        this.add(entry.role, -entry.tokens);
        entry.tokens = Math.round(usage.completionTokens) + MESSAGE_OVERHEAD_TOKENS;
        entry.measured = true;
        this.add(entry.role, entry.tokens);
      }
    }
  }

  /** Best estimate of the next prompt. O(1). */
  total(): number {
    if (!this.anchor) return this.estimated();
    return this.anchor.promptTokens + (this.estimated() - this.anchor.estimateAtAnchor);
  }

  /** The pure estimate (no anchor). O(1). */
  estimated(): number {
    return REQUEST_OVERHEAD_TOKENS + this.systemPromptTokens + this.toolsTokens + this.messagesTotal;
  }

  isAnchored(): boolean {
    return this.anchor !== null;
  }

  /** Tokens cached for one message (its estimate, or the provider's figure for a measured reply). */
  messageTokens(id: string): number | undefined {
    return this.entries.get(id)?.tokens;
  }

  breakdown(): TokenBreakdown {
    const estimated = this.estimated();
    const total = this.total();
    return {
      total,
      estimated,
      systemPrompt: this.systemPromptTokens,
      tools: this.toolsTokens,
      overhead: REQUEST_OVERHEAD_TOKENS,
      byRole: { ...this.roleTotals },
      anchorTokens: this.anchor?.promptTokens ?? null,
      sinceAnchor: this.anchor ? estimated - this.anchor.estimateAtAnchor : 0,
    };
  }

  /** Recomputes the estimate from the cached per-message figures, for checking the running total. */
  recount(): number {
    let messages = 0;
    for (const entry of this.entries.values()) messages += entry.tokens;
    return REQUEST_OVERHEAD_TOKENS + this.systemPromptTokens + this.toolsTokens + messages;
  }

  private add(role: Role, tokens: number): void {
    this.messagesTotal += tokens;
    this.roleTotals[role] += tokens;
  }
}
