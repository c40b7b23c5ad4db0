// What the CLI prints: text (the block and a one-line summary), json (the whole structured
// result, ids included) and markdown (a readable report), for compact, --rounds and stats.
import { type CompactionRecord, type CompactionResult, type ScaledSetting, type SourcedLine, describeScaled } from '../core';
import type { Conversation, FormatId } from './formats';
import type { ReplayEvent, ReplayResult } from './replay';
import type { Resolved } from './settings';
import type { ConversationStats } from './stats';

export type OutputFormat = 'text' | 'json' | 'markdown';

const n = (x: number): string => x.toLocaleString('en-US');
const plural = (k: number, word: string): string => `${n(k)} ${word}${k === 1 ? '' : 's'}`;

export interface CompactOutput {
  conversation: Conversation;
  format: FormatId;
  settings: Resolved;
  result: CompactionResult;
  units: { removed: number; kept: number };
}

function settingsJson(s: Resolved): Record<string, unknown> {
  return {
    model: s.model ?? null,
    window: s.window,
    windowFrom: s.windowFrom,
    compactionPoint: s.point,
    budget: s.budget,
    keepExchanges: s.keepExchanges,
    keepTokens: s.keepTokens,
    replyReserve: s.budgets.replyReserve,
    triggerPercent: s.triggerPercent,
    messageLimit: s.messageLimit,
    microCompaction: s.micro,
    focus: s.focus ?? null,
  };
}

function conversationJson(c: Conversation, format: FormatId): Record<string, unknown> {
  return { id: c.id, title: c.title, format, model: c.model ?? null, messages: c.messages.length };
}

/** One line: what was removed and kept, tokens before → after, the block's cost. */
export function statsLine(out: CompactOutput): string {
  const r = out.result;
  if (!r.ok) return r.message;
  const total = r.removed.length + r.kept.length;
  return (
    `round ${r.record.round}: compacted ${n(r.removed.length)} of ${plural(total, 'message')} (${plural(out.units.removed, 'unit')}), kept ${n(r.kept.length)}` +
    ` · ~${n(r.record.tokensBefore)} → ${n(r.record.tokensAfter)} tokens · block ${n(r.record.blockTokens)} of ${n(out.settings.budget)} budget`
  );
}

export function compactJson(out: CompactOutput): Record<string, unknown> {
  const base = { conversation: conversationJson(out.conversation, out.format), settings: settingsJson(out.settings) };
  const r = out.result;
  if (!r.ok) return { ...base, ok: false, reason: r.reason, message: r.message };
  return {
    ...base,
    ok: true,
    unchanged: r.unchanged,
    stats: {
      removedMessages: r.removed.length,
      keptMessages: r.kept.length,
      removedUnits: out.units.removed,
      keptUnits: out.units.kept,
      tokensBefore: r.record.tokensBefore,
      tokensAfter: r.record.tokensAfter,
      blockTokens: r.record.blockTokens,
    },
    block: r.block,
    record: r.record,
    removed: r.removed,
    kept: r.kept,
  };
}

export function compactText(outs: readonly CompactOutput[]): string {
  return outs
    .map((out) => {
      const head = outs.length > 1 ? `# ${out.conversation.id}${out.conversation.title ? ` — ${out.conversation.title}` : ''}\n` : '';
      const r = out.result;
      if (!r.ok) return `${head}${r.message}\n`;
      return `${head}${r.block ? `${r.block}\n\n` : ''}${statsLine(out)}\n`;
    })
    .join('\n');
}

export function compactMarkdown(outs: readonly CompactOutput[]): string {
  return outs
    .map((out) => {
      const c = out.conversation;
      const lines = [`## Compaction of ${c.title ? `“${c.title}”` : c.id}`, ''];
      lines.push(`- Conversation: \`${c.id}\` (${out.format}${out.settings.model ? `, ${out.settings.model}` : ''})`);
      const r = out.result;
      if (!r.ok) {
        lines.push(`- ${r.message}`, '');
        return lines.join('\n');
      }
      lines.push(
        `- Round ${r.record.round}: compacted ${n(r.removed.length)} of ${plural(r.removed.length + r.kept.length, 'message')} (${plural(out.units.removed, 'unit')}); kept ${n(r.kept.length)} (${plural(out.units.kept, 'unit')})`,
        `- Tokens: ~${n(r.record.tokensBefore)} → ${n(r.record.tokensAfter)}; the block costs ${n(r.record.blockTokens)} of a ${n(out.settings.budget)}-token budget`,
      );
      if (r.record.focus) lines.push(`- Focus: ${r.record.focus}`);
      lines.push('', ...recordMarkdown(r.record), '### The block sent', '', fenced(r.block || '(empty: the budget cannot hold a block)'), '');
      return lines.join('\n');
    })
    .join('\n');
}

function recordMarkdown(record: CompactionRecord): string[] {
  const out: string[] = [];
  const section = (title: string, items: readonly { text: string }[]): void => {
    if (!items.length) return;
    out.push(`### ${title}`, '', ...items.map((i) => `- ${i.text.replace(/\n+/g, ' ')}`), '');
  };
  const one = (title: string, line: SourcedLine | null): void => section(title, line ? [line] : []);
  one('Goal', record.goal);
  section('Constraints and preferences', record.constraints);
  section('Decisions', record.decisions);
  section('Done', record.done);
  section('Open tasks', record.openTasks);
  section('Errors', record.errors.map((e) => ({ text: e.resolution ? `${e.text} → ${e.resolution}` : e.text })));
  one('Where it left off', record.leftOff);
  section('Topics', record.topics);
  section('References', record.references.map((r) => ({ text: r.kind === 'url' ? `<${r.text}>` : `\`${r.text}\`` })));
  section('Files read', record.filesRead.map((f) => ({ text: `\`${f.path}\`` })));
  section('Files modified', record.filesModified.map((f) => ({ text: `\`${f.path}\`` })));
  return out;
}

/** A fenced block whose fence no backtick run inside can close. */
function fenced(text: string, info = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

// ── --rounds ────────────────────────────────────────────────────────────────────────────────

export interface RoundsOutput {
  conversation: Conversation;
  format: FormatId;
  settings: Resolved;
  replay: ReplayResult;
}

function eventHeader(e: ReplayEvent, total: number): string {
  const where = `before message ${n(e.beforeMessage)} of ${n(total)}`;
  switch (e.kind) {
    case 'compaction': {
      const micro = e.microCleared.length ? ` (after clearing ${plural(e.microCleared.length, 'old tool result')})` : '';
      return `── round ${e.record.round} · ${where} · trigger ${e.reasons.join(' + ')} · ~${n(e.promptBefore)} → ${n(e.promptAfter)} tokens · removed ${plural(e.removedCount, 'message')}, kept ${n(e.keptCount)}${micro} ──`;
    }
    case 'micro':
      return `── micro-compaction · ${where} · cleared ${plural(e.cleared.length, 'old tool result')} · ~${n(e.promptBefore)} → ${n(e.promptAfter)} tokens ──`;
    case 'skipped':
      return `── ${where}: ${e.message} ──`;
  }
}

const CLI_SCALED_NAMES: Record<ScaledSetting, string> = {
  replyReserve: '--reply-reserve',
  keepTokens: '--keep-tokens',
  blockBudget: '--budget',
  restoredBudget: 'restored notes',
};

function roundsSummary(out: RoundsOutput): string {
  const s = out.settings;
  const scaled = describeScaled(s.budgets, CLI_SCALED_NAMES);
  return scaled ? `${roundsLine(out)}\n${scaled}` : roundsLine(out);
}

function roundsLine(out: RoundsOutput): string {
  const s = out.settings;
  const r = out.replay;
  const where = `window ${n(s.window)}${s.windowFrom === 'model' ? ` (${s.model ?? ''})` : s.windowFrom === 'default' ? ' (default)' : ''}, compaction point ${n(s.point)}`;
  if (!r.rounds) {
    return `no compaction over ${plural(r.messages, 'message')}: the prompt peaks at ~${n(r.peakTokens)} tokens (${where})`;
  }
  return `${plural(r.rounds, 'round')} over ${plural(r.messages, 'message')} (${where}); the prompt ends at ~${n(r.finalTokens)} tokens`;
}

export function roundsText(outs: readonly RoundsOutput[]): string {
  return outs
    .map((out) => {
      const lines: string[] = [];
      if (outs.length > 1) lines.push(`# ${out.conversation.id}${out.conversation.title ? ` — ${out.conversation.title}` : ''}`);
      for (const e of out.replay.events) {
        lines.push(eventHeader(e, out.replay.messages));
        if (e.kind === 'compaction') lines.push(e.block || '(empty block: the budget cannot hold one)', '');
      }
      lines.push(roundsSummary(out));
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

export function roundsJson(out: RoundsOutput): Record<string, unknown>[] {
  return out.replay.events.map((e) => ({ ...e }));
}

export function roundsEnvelope(out: RoundsOutput): Record<string, unknown> {
  return {
    conversation: conversationJson(out.conversation, out.format),
    settings: settingsJson(out.settings),
    rounds: out.replay.rounds,
    peakTokens: out.replay.peakTokens,
    finalTokens: out.replay.finalTokens,
    events: roundsJson(out),
  };
}

export function roundsMarkdown(outs: readonly RoundsOutput[]): string {
  return outs
    .map((out) => {
      const c = out.conversation;
      const lines = [`## Compaction rounds of ${c.title ? `“${c.title}”` : c.id}`, '', roundsSummary(out), ''];
      for (const e of out.replay.events) {
        const header = eventHeader(e, out.replay.messages).replace(/^── | ──$/g, '');
        lines.push(`### ${header}`, '');
        if (e.kind === 'compaction') lines.push(fenced(e.block || '(empty block)'), '');
      }
      return lines.join('\n');
    })
    .join('\n');
}

// ── stats ───────────────────────────────────────────────────────────────────────────────────

const ROLE_ORDER = ['system', 'user', 'assistant', 'tool'] as const;

function date(ms: number): string {
  return ms > 0 ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : 'unknown';
}

export function statsText(all: readonly ConversationStats[]): string {
  return all
    .map((s) => {
      const lines: string[] = [];
      lines.push(`${s.id}${s.title && s.title !== s.id ? ` — ${s.title}` : ''}`);
      const when = s.firstAt ? `${date(s.firstAt)} → ${date(s.lastAt)}` : 'no times in the export';
      lines.push(`  ${plural(s.messages, 'message')} in ${plural(s.units, 'unit')}, ${plural(s.toolCalls, 'tool call')}, ${plural(s.images, 'image')}; ${when}`);
      lines.push(`  ${'role'.padEnd(10)} ${'messages'.padStart(8)} ${'tokens'.padStart(9)}`);
      for (const role of ROLE_ORDER) {
        const r = s.byRole[role];
        if (!r.messages) continue;
        lines.push(`  ${role.padEnd(10)} ${n(r.messages).padStart(8)} ${n(r.tokens).padStart(9)}`);
      }
      lines.push(`  ${'total'.padEnd(10)} ${n(s.messages).padStart(8)} ${n(s.totalTokens).padStart(9)}  (with request overhead)`);
      const windowFrom = s.windowFrom === 'model' ? `, ${s.model ?? ''}` : s.windowFrom === 'default' ? ', default for an unknown model' : '';
      lines.push(
        `  window ${n(s.window)}${windowFrom}; compaction point ${n(s.compactionPoint)} (${s.triggerPercent} % of the window, ${n(s.replyReserve)} reserved for the reply)`,
      );
      lines.push(
        s.crossesAt === null
          ? `  the whole conversation fits: ~${n(s.totalTokens)} of ${n(s.compactionPoint)} tokens (${Math.round((100 * s.totalTokens) / s.compactionPoint)} %)`
          : `  the point is crossed at message ${n(s.crossesAt)} of ${n(s.messages)} (${s.crossesAtId ?? ''}); the whole conversation is ~${(s.totalTokens / s.compactionPoint).toFixed(1)}× the point`,
      );
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

export function statsMarkdown(all: readonly ConversationStats[]): string {
  return all
    .map((s) => {
      const lines = [`## ${s.title || s.id}`, '', '| role | messages | tokens |', '| --- | ---: | ---: |'];
      for (const role of ROLE_ORDER) {
        const r = s.byRole[role];
        if (r.messages) lines.push(`| ${role} | ${n(r.messages)} | ${n(r.tokens)} |`);
      }
      lines.push(`| **total** | ${n(s.messages)} | ${n(s.totalTokens)} |`, '');
      lines.push(`- Window ${n(s.window)}; compaction point ${n(s.compactionPoint)}`);
      lines.push(s.crossesAt === null ? '- The whole conversation fits before the compaction point.' : `- The point is crossed at message ${n(s.crossesAt)} of ${n(s.messages)}.`, '');
      return lines.join('\n');
    })
    .join('\n');
}

/** The list `stats` prints for a file with several conversations and no --conversation. */
export function conversationListText(all: readonly ConversationStats[]): string {
  const lines = [`${plural(all.length, 'conversation')} (pick one with --conversation ID|INDEX|all):`];
  all.forEach((s, i) => {
    const over = s.crossesAt === null ? '' : ' · over the compaction point';
    lines.push(`  ${String(i + 1).padStart(3)}  ${s.id}  ${s.title ? JSON.stringify(s.title) : '(untitled)'} · ${plural(s.messages, 'message')} · ~${n(s.totalTokens)} tokens${over}`);
  });
  return `${lines.join('\n')}\n`;
}

