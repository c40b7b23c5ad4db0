// The compaction policy over generated conversations — dialogues, tool loops under one user
// message, huge single messages — at windows from 2k to 1M, through the CLI replay that consults
// it before every request exactly as the chat session does: every automatic compaction lands at
// half the prompt and half the window at most, no request goes out over the point, the latest user
// message is always sent whole, and no cut splits a unit.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { replay } from '../../src/cli/replay';
import { CLI_DEFAULTS, resolve } from '../../src/cli/settings';
import type { ChatMessage, ToolCall } from '../../src/core/messages';
import { PROSE_MARGIN, UNDER } from '../../src/core/block-margin';
import { compactionTarget, decideCompaction, promptMargin, resolveBudgets, restoredRoom, sentFrom } from '../../src/core/policy';
import { estimateMessageTokens } from '../../src/core/message-tokens';
import { estimateTokens } from '../../src/core/tokens';
import { EXACT, FAMILIES, MODEL, freeReferences } from './reference-counts';
import { groupUnits, validCutPositions } from '../../src/core/units';

afterAll(freeReferences);

const WORDS = ['garden', 'compost', 'budget', 'launch', 'review', 'the', 'plan', 'Friday', 'notes', 'error', 'fixed', 'file', 'src/app.ts', 'test', 'we', 'agreed'];

/** About `tokens` tokens of prose (the estimator counts roughly a token per short word). */
function prose(seed: number, tokens: number): string {
  const out: string[] = [];
  for (let i = 0; i < Math.max(1, tokens); i++) out.push(WORDS[(seed * 7 + i * 3) % WORDS.length] as string);
  for (let i = 11; i < out.length; i += 12) out[i] += '.';
  return `${out.join(' ')}.`;
}

type Shape =
  | { kind: 'dialogue'; sizes: number[] }
  | { kind: 'tool-loop'; task: number; results: number[] }
  | { kind: 'huge'; sizes: number[]; huge: number };

/** Sizes are shares of the window (per mille), so every window gets conversations that outgrow it. */
const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ kind: fc.constant('dialogue' as const), sizes: fc.array(fc.integer({ min: 5, max: 120 }), { minLength: 4, maxLength: 40 }) }),
  fc.record({ kind: fc.constant('tool-loop' as const), task: fc.integer({ min: 5, max: 150 }), results: fc.array(fc.integer({ min: 5, max: 250 }), { minLength: 3, maxLength: 30 }) }),
  fc.record({ kind: fc.constant('huge' as const), sizes: fc.array(fc.integer({ min: 5, max: 60 }), { minLength: 2, maxLength: 12 }), huge: fc.integer({ min: 300, max: 1500 }) }),
);

function build(s: Shape, window: number): ChatMessage[] {
  const tokens = (perMille: number): number => Math.max(3, Math.floor((window * perMille) / 1000));
  const out: ChatMessage[] = [];
  let n = 0;
  const add = (m: { role: ChatMessage['role']; content: string; toolCalls?: ToolCall[]; toolCallId?: string }): void => {
    out.push({ ...m, id: `m${n}`, createdAt: n++ } as unknown as ChatMessage);
  };
  if (s.kind === 'tool-loop') {
    add({ role: 'user', content: prose(1, tokens(s.task)) });
    s.results.forEach((size, i) => {
      add({ role: 'assistant', content: `Step ${i}.`, toolCalls: [{ id: `c${i}`, name: 'bash', arguments: JSON.stringify({ command: `cat file${i}.py` }) }] });
      add({ role: 'tool', toolCallId: `c${i}`, content: prose(i, tokens(size)) });
    });
    add({ role: 'assistant', content: 'Done.' });
    return out;
  }
  s.sizes.forEach((size, i) => add({ role: i % 2 ? 'assistant' : 'user', content: prose(i, tokens(size)) }));
  if (s.kind === 'huge') add({ role: 'user', content: prose(99, tokens(s.huge)) });
  return out;
}

// Mostly small windows (where the budgets scale), some large, and the 1M edge now and then: a
// conversation that outgrows 1M tokens takes a while to read.
const windowArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 2048, max: 16_384 }) },
  { weight: 2, arbitrary: fc.integer({ min: 16_384, max: 200_000 }) },
  { weight: 1, arbitrary: fc.constant(1_000_000) },
);

describe('the compaction policy', () => {
  it('scales the configured numbers down to fit small windows and says which', () => {
    const budgets = resolveBudgets({ window: 4096, replyReserve: 2048, trigger: { kind: 'percent', percent: 85 }, messageLimit: 0, keepExchanges: 2, keepTokens: 2000, blockBudget: 1500, restoredBudget: 2000 });
    expect(budgets.replyReserve).toBe(1024);
    expect(budgets.point).toBe(3072);
    expect(budgets.scaled.map((s) => s.setting).sort()).toEqual(['blockBudget', 'keepTokens', 'replyReserve', 'restoredBudget']);
    expect(budgets.blockBudget + budgets.keepTokens + budgets.restoredBudget).toBeLessThanOrEqual(budgets.point / 2);
    const big = resolveBudgets({ window: 200_000, replyReserve: 2048, trigger: { kind: 'percent', percent: 85 }, messageLimit: 0, keepExchanges: 2, keepTokens: 2000, blockBudget: 1500, restoredBudget: 2000 });
    expect(big.scaled).toEqual([]);
  });

  it('replays any conversation at any window within the targets, the latest request whole', () => {
    fc.assert(
      fc.property(shape, windowArb, (s, window) => {
        const messages = build(s, window);
        const settings = resolve({ ...CLI_DEFAULTS, window }, { id: 'c', title: '', messages });
        const r = replay(messages, settings);
        const room = compactionTarget(settings.budgets.point, window);
        const latestTooBig = (at: number): boolean => {
          const user = messages.slice(0, at).filter((m) => m.role === 'user').at(-1);
          return user !== undefined && estimateMessageTokens(user) > room / 2;
        };
        const units = groupUnits(messages);
        const valid = validCutPositions(units, messages.length);
        for (const e of r.events) {
          expect(e.kind).not.toBe('skipped');
          if (e.kind !== 'compaction') continue;
          // No unit is split: the boundary is a valid cut of the whole conversation.
          const through = messages.findIndex((m) => m.id === e.record.removedThrough);
          expect(valid[through + 1]).toBe(true);
          // The latest user message of the request is still sent: kept, or pinned by an in-turn round.
          const latest = messages.slice(0, e.beforeMessage).filter((m) => m.role === 'user').at(-1);
          // (Or, too big to leave the block its room once tool rounds answered it, carried by the block.)
          if (latest) expect(e.record.keptIds.includes(latest.id) || e.inTurn || e.record.requestCarried === latest.id).toBe(true);
          if (e.oversized || latestTooBig(e.beforeMessage)) continue;
          expect(e.promptAfter).toBeLessThanOrEqual(e.promptBefore / 2);
          expect(e.promptAfter).toBeLessThanOrEqual(window / 2);
        }
        if (s.kind !== 'huge') {
          expect(r.overPoint).toBe(0);
          expect(r.peakTokens).toBeLessThanOrEqual(window);
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);

  it('never cuts inside a unit, and keeps the latest user message sent when the cut passes it', () => {
    fc.assert(
      fc.property(shape, fc.integer({ min: 2048, max: 65_536 }), fc.boolean(), (s, window, manual) => {
        const messages = build(s, window);
        const budgets = resolveBudgets({ window, replyReserve: 2048, trigger: { kind: 'percent', percent: 85 }, messageLimit: 0, keepExchanges: 2, keepTokens: 2000, blockBudget: 1500, restoredBudget: 2000 });
        const tokensOf = (m: ChatMessage): number => estimateMessageTokens(m);
        const prompt = 3 + messages.reduce((sum, m) => sum + tokensOf(m), 0);
        const plan = decideCompaction({ budgets, messages, tokensOf, promptTokens: prompt, fixedTokens: 3, manual });
        if (plan.action !== 'compact') return;
        const valid = validCutPositions(groupUnits(messages), messages.length);
        expect(valid[plan.cut]).toBe(true);
        const lastUser = messages.map((m) => m.role).lastIndexOf('user');
        if (plan.cut > lastUser) expect(plan.pinned ?? plan.carried).toBe(lastUser);
        // A carried request is one that tool rounds answered, and the block gets its room then.
        if (plan.carried !== null) {
          expect(plan.pinned).toBeNull();
          expect(plan.carried).toBeLessThan(messages.length - 1);
        }
        if (manual) expect(plan.cut).toBeLessThanOrEqual(lastUser);
        const sent = sentFrom(messages, plan.cut, (m) => m.role === 'user');
        if (lastUser >= 0 && plan.carried === null) expect(sent).toContain(messages[lastUser]);
        const carried = sentFrom(messages, plan.cut, (m) => m.role === 'user', () => false, (m) => messages.indexOf(m) === plan.carried);
        if (plan.carried !== null) expect(carried).not.toContain(messages[plan.carried]);
      }),
      { numRuns: 150 },
    );
  });

  it('"Compact now" compacts whenever anything lies before the latest exchange, and says why not otherwise', () => {
    const budgets = resolveBudgets({ window: 3000, replyReserve: 2048, trigger: { kind: 'percent', percent: 70 }, messageLimit: 0, keepExchanges: 2, keepTokens: 2000, blockBudget: 1500, restoredBudget: 2000 });
    const tokensOf = (m: ChatMessage): number => estimateMessageTokens(m);
    const messages = build({ kind: 'dialogue', sizes: [40, 40, 40, 40] }, 3000);
    const plan = (ms: ChatMessage[]) => decideCompaction({ budgets, messages: ms, tokensOf, promptTokens: 100, fixedTokens: 3, manual: true });
    // Well below the point and within the keep settings, it still compacts the older exchange.
    expect(plan(messages)).toMatchObject({ action: 'compact', cut: 2 });
    expect(plan(messages.slice(0, 2))).toMatchObject({ action: 'nothing-to-compact', message: expect.stringMatching(/only the latest exchange is sent/) as unknown });
    expect(plan([])).toMatchObject({ action: 'nothing-to-compact', message: expect.stringMatching(/empty/) as unknown });
  });
  it('keeps verbatim what fits the room the target leaves less the margin the kept text needs, as the block does', () => {
    const budgets = resolveBudgets({ window: 8000, replyReserve: 1000, trigger: { kind: 'percent', percent: 85 }, messageLimit: 0, keepExchanges: 0, keepTokens: 0, blockBudget: 1500, restoredBudget: 0 });
    const tokensOf = (m: ChatMessage): number => estimateMessageTokens(m);
    const say = (text: string): ChatMessage[] =>
      Array.from({ length: 300 }, (_, i) => ({ id: `m${i}`, createdAt: i, role: i % 2 ? 'assistant' : 'user', content: `${text} (${i})` }));
    const plan = (messages: ChatMessage[]) => {
      const prompt = 3 + messages.reduce((sum, m) => sum + tokensOf(m), 0);
      const p = decideCompaction({ budgets, messages, tokensOf, promptTokens: prompt, fixedTokens: 3, model: 'gpt-4o' });
      if (p.action !== 'compact') throw new Error(p.action);
      return p;
    };
    const english = plan(say('We booked the cabin by the lake for the second week of August, and the owner said the canoe is free for guests.'));
    const czech = plan(say('Zarezerwowaliśmy domek nad jeziorem na drugi tydzień sierpnia, a właściciel powiedział, że kajak jest za darmo.'));
    expect(english.keptTokens).toBeLessThanOrEqual(english.keepRoom * (1 - PROSE_MARGIN));
    expect(czech.keptTokens).toBeLessThanOrEqual(czech.keepRoom * (1 - UNDER.latinext));
    // And not for nothing: without the margin the Czech turn would keep more.
    expect(czech.keptTokens).toBeGreaterThan(0);
    expect(czech.keepRoom - czech.keptTokens).toBeGreaterThan(czech.keepRoom * (UNDER.latinext - PROSE_MARGIN));
  });

  // The prompt without the notes is an estimate: the notes' room is what the target leaves once
  // it is counted at the most the model's count can make of it, so the two together stay within
  // the target by that count (the notes themselves are held to the room by restore.ts).
  it("leaves the restored notes the room the target leaves by the model's own count", () => {
    const budgets = resolveBudgets({ window: 32000, replyReserve: 2000, trigger: { kind: 'percent', percent: 80 }, messageLimit: 0, keepExchanges: 2, keepTokens: 2000, blockBudget: 2000, restoredBudget: 4000 });
    const system = 'You are a careful assistant working in the user\'s notes. Answer briefly.';
    const said = [
      'We booked the cabin by the lake for the second week of August, and the owner said the canoe is free.',
      'Rezervovali jsme chatu u jezera na druhý týden v srpnu. Mohl bys zkontrolovat, jestli zítřejší vlak odjíždí včas?',
      '我们预订了湖边的小屋，时间是八月的第二周。你能查一下明天早上的火车是否准时出发吗？',
      'Release day 🎉 thanks everyone 🚀 the build is green ✅ and the docs are live 📦',
    ];
    for (const family of FAMILIES) {
      const model = MODEL[family];
      for (const text of said) {
        const messages: ChatMessage[] = Array.from({ length: 120 }, (_, i) => ({ id: `m${i}`, createdAt: i, role: i % 2 ? 'assistant' : 'user', content: text }));
        const prompt = [system, ...messages.map((m) => m.content)].join('\n');
        const estimate = estimateTokens(prompt, model);
        const target = 2 * estimate;
        const room = restoredRoom(budgets, target, estimate, promptMargin([system], messages, model));
        expect(room).toBeGreaterThan(0);
        expect(EXACT[family](prompt) + room).toBeLessThanOrEqual(target);
        // And no more held back than the margin: English prose by o200k, its twentieth.
        if (family === 'o200k' && text === said[0]) expect(room).toBe(Math.min(budgets.restoredBudget, target - Math.ceil(estimate / (1 - PROSE_MARGIN)) - 8));
      }
    }
    // Without text to judge, nothing is held back.
    expect(restoredRoom(budgets, 5000, 3000)).toBe(Math.min(budgets.restoredBudget, 5000 - 3000 - 8));
  });
});
