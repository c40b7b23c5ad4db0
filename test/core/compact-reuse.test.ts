// What the compactor keeps between compactions (the sentence pass per message, the answers about
// each sentence alone in sentence-memo.ts, the summary classes, references, stamps, the word
// table) must change only its speed: compacting twice, after reading the messages one by one as
// they arrive, or in a chain over messages an earlier round already read, gives byte-identical
// records and blocks to compacting fresh copies no cache has seen.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact, prepareMessage, type CompactOptions } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
import type { CompactionRecord } from '../../src/core/record';
import { agentRun, datedDialogue, draftChat, vaultChat } from './golden-chats';
import { conversation } from './arbitraries';

const fresh = (messages: readonly ChatMessage[]): ChatMessage[] => messages.map((m) => ({ ...m, ...(m.role === 'assistant' && m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c })) } : {}) }));

/** The chats end to end, each a different kind (vault chat, agent run, dated talk, drafting). */
const chats: [string, () => ChatMessage[]][] = [
  ['vault chat', vaultChat],
  ['agent run', agentRun],
  ['dated dialogue', datedDialogue],
  ['draft chat', draftChat],
];

function run(messages: readonly ChatMessage[], options: CompactOptions): string {
  return JSON.stringify(compact(messages, options));
}

/** Every round of a chain (cuts at each third), as JSON: over `messages` every round, or over
 * fresh copies of them each round when `messages` is a function. */
function chain(messages: readonly ChatMessage[] | (() => ChatMessage[]), budgetTokens: number): string[] {
  const out: string[] = [];
  let previous: CompactionRecord | null = null;
  for (const share of [1 / 3, 2 / 3, 1]) {
    const ms = typeof messages === 'function' ? messages() : messages;
    const cut = Math.max(1, Math.floor(ms.length * share) - 1);
    const r = compact(ms, { budgetTokens, cut, model: 'gpt-4o', now: 1, previous });
    out.push(JSON.stringify(r));
    if (r.ok) previous = r.record;
  }
  return out;
}

describe('compaction reuses what it read, and only its speed changes', () => {
  for (const [name, make] of chats) {
    for (const budgetTokens of [120, 400, 1500]) {
      it(`${name} at ${budgetTokens} tokens: twice, read ahead, and chained give the same blocks`, () => {
        const base = make();
        const cut = base.length - 2;
        const options: CompactOptions = { budgetTokens, cut, model: 'gpt-4o', now: 1, focus: undefined };
        const cold = run(fresh(base), options);
        expect(compact(fresh(base), options).ok).toBe(true);
        // The same objects compacted twice.
        const same = fresh(base);
        expect(run(same, options)).toBe(cold);
        expect(run(same, options)).toBe(cold);
        // Read one by one as they arrive, then compacted.
        const arrived = fresh(base);
        for (const m of arrived) prepareMessage(m);
        expect(run(arrived, options)).toBe(cold);
        // A chain over messages every earlier round (and the runs above) read, against fresh ones.
        expect(chain(arrived, budgetTokens)).toEqual(chain(() => fresh(base), budgetTokens));
        // With a focus, after the plain compaction cached everything.
        const focused = { ...options, focus: 'garden plan tests' };
        expect(run(same, focused)).toBe(run(fresh(base), focused));
      });
    }
  }

  it('holds for a long agent run that says the same decisions and causes many times', () => {
    // (What the hot path reads once per sentence — section lines, name marks, the cause and plan
    // questions — meets each sentence many times here, in several sections.)
    const messages: ChatMessage[] = [];
    const topics = ['garden', 'budget', 'release'];
    for (let i = 0; i < 60; i++) {
      const topic = topics[i % 3] as string;
      messages.push({ id: `u${i}`, createdAt: 1_700_000_000_000 + i * 60_000, role: 'user', content: `Please keep the ${topic} plan simple. We decided to keep the ${topic} plan simple. Never edit the ${topic} tests.\n- [ ] Update the ${topic} totals for March entries` });
      messages.push({
        id: `a${i}`,
        createdAt: 1_700_000_000_000 + i * 60_000 + 1,
        role: 'assistant',
        content: `I've updated the ${topic} note for Priya in [[${topic}/Plan]]. The issue is that the ${topic} totals ignore March entries. The fix should be to count them in \`sumEntries\`. We decided to keep the ${topic} plan simple.\n- [x] Updated the ${topic} totals for March entries ${i}`,
        ...(i % 4 === 0 ? { toolCalls: [{ id: `c${i}`, name: 'read_note', arguments: JSON.stringify({ path: `${topic}/${i}.md` }) }] } : {}),
      });
      if (i % 4 === 0) messages.push({ id: `t${i}`, createdAt: 1_700_000_000_000 + i * 60_000 + 2, role: 'tool', toolCallId: `c${i}`, content: `# Note ${i}\nTypeError: cannot read properties of undefined (reading 'size')` });
    }
    for (const budgetTokens of [300, 1200]) {
      const options: CompactOptions = { budgetTokens, cut: messages.length - 2, model: 'gpt-4o', now: 1 };
      const cold = run(fresh(messages), options);
      const arrived = fresh(messages);
      for (const m of arrived) prepareMessage(m);
      expect(run(arrived, options)).toBe(cold);
      expect(run(arrived, options)).toBe(cold);
      expect(chain(arrived, budgetTokens)).toEqual(chain(() => fresh(messages), budgetTokens));
    }
  });

  it('holds for generated conversations, read ahead or compacted again', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 60, max: 900 }), (messages, budgetTokens) => {
        const options: CompactOptions = { budgetTokens, model: 'gpt-4o', now: 1 };
        const cold = run(fresh(messages), options);
        const warm = fresh(messages);
        for (const m of warm) prepareMessage(m);
        expect(run(warm, options)).toBe(cold);
        expect(run(warm, options)).toBe(cold);
      }),
      { numRuns: 100 },
    );
  });
});
