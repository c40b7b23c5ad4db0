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
import { lineKey } from '../../src/core/edits';

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

/** Read ahead as they arrived, compacted twice and chained, the messages give the cold blocks. */
function expectArrivedAsCold(messages: readonly ChatMessage[], budgets: readonly number[]): void {
  for (const budgetTokens of budgets) {
    const options: CompactOptions = { budgetTokens, cut: messages.length - 2, model: 'gpt-4o', now: 1 };
    const cold = run(fresh(messages), options);
    const arrived = fresh(messages);
    for (const m of arrived) prepareMessage(m);
    expect(run(arrived, options)).toBe(cold);
    expect(run(arrived, options)).toBe(cold);
    expect(chain(arrived, budgetTokens)).toEqual(chain(() => fresh(messages), budgetTokens));
  }
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

  it('what one compaction learnt of the conversation serves another budget or focus as a cold run would', () => {
    // (conversation-analysis.ts keeps the analysis of a sequence of messages; only the fact pick
    // and the render depend on the options. Each budget crosses a threshold the analysis must not
    // have fixed: listed answers under threads from 600 tokens, the pool's size.)
    for (const [, make] of chats) {
      const base = make();
      const cut = base.length - 2;
      const same = fresh(base);
      const variants: CompactOptions[] = [
        { budgetTokens: 1500, cut, model: 'gpt-4o', now: 1 },
        { budgetTokens: 120, cut, model: 'gpt-4o', now: 1 },
        { budgetTokens: 400, cut, model: 'gpt-4o', now: 1, focus: 'garden plan tests' },
        { budgetTokens: 1500, cut, model: 'gpt-4o', now: 1, focus: 'the budget for March' },
        { budgetTokens: 800, cut, model: 'gpt-4o', now: 1, trigger: 'manual' },
        { budgetTokens: 1500, cut, model: 'gpt-4o', now: 1 },
      ];
      for (const options of variants) expect(run(same, options)).toBe(run(fresh(base), options));
      // And a later round on top of the reused one, with the first round's record as previous.
      const first = compact(same, variants[0] as CompactOptions);
      if (!first.ok) throw new Error('first round failed');
      const more = [...same, ...fresh(base).map((m) => ({ ...m, id: `${m.id}-again` }))];
      const later = { budgetTokens: 600, cut: more.length - 2, model: 'gpt-4o', now: 2, previous: first.record };
      const coldFirst = compact(fresh(base), variants[0] as CompactOptions);
      if (!coldFirst.ok) throw new Error('cold first round failed');
      const coldMore = [...fresh(base), ...fresh(base).map((m) => ({ ...m, id: `${m.id}-again` }))];
      const cold = run(coldMore, { ...later, previous: coldFirst.record });
      expect(run(more, later)).toBe(cold);
      expect(run(more, { ...later, budgetTokens: 2000 })).toBe(run(coldMore, { ...later, budgetTokens: 2000, previous: coldFirst.record }));
      expect(run(more, later)).toBe(cold);
    }
  });

  it('an assistant chat of listed answers: threads headed by what was asked at one budget, not at another', () => {
    // (From 600 tokens a thread headed by its phrases is headed by the question its answer's list
    // answers — here short questions opening on "And", which head no thread themselves — and that
    // changes the record's threads: the analysis kept for the next compaction must not change.)
    const at = (i: number): number => 1_700_000_000_000 + i * 3_600_000;
    const topics = [
      ['And cheap cookware sets?', '1. **T-fal Easy Care** - non-stick, 50 dollars\n2. **Calphalon Classic** - stainless, 90 dollars\n3. **Rachael Ray Cucina** - non-stick, 70 dollars'],
      ['And shade garden perennials?', '1. **Hostas** - broad leaves, easy care\n2. **Astilbe** - feathery plumes in June\n3. **Bleeding heart** - spring flowers'],
      ['And bike maintenance checklists?', '1. **Tires** - wear and pressure\n2. **Brakes** - pads and cables\n3. **Chain** - wear and lubrication'],
    ];
    const messages: ChatMessage[] = [];
    topics.forEach(([ask, list], i) => {
      messages.push({ id: `u${i}`, createdAt: at(i * 10), role: 'user', content: ask as string });
      messages.push({ id: `a${i}`, createdAt: at(i * 10) + 1, role: 'assistant', content: `Here are some options.\n${list}` });
      messages.push({ id: `v${i}`, createdAt: at(i * 10) + 2, role: 'user', content: `Thanks, I'll go with the second one for the ${['kitchen', 'garden', 'trip'][i]}.` });
      messages.push({ id: `b${i}`, createdAt: at(i * 10) + 3, role: 'assistant', content: 'Good choice, it should serve you well.' });
    });
    messages.push({ id: 'u9', createdAt: at(99), role: 'user', content: 'What else should I pack?' });
    const cut = messages.length - 1;
    const same = fresh(messages);
    for (const budgetTokens of [1500, 300, 900, 300, 1500]) {
      const options = { budgetTokens, cut, model: 'gpt-4o', now: 1 };
      expect(run(same, options)).toBe(run(fresh(messages), options));
    }
    const first = compact(fresh(messages), { budgetTokens: 1500, cut, model: 'gpt-4o', now: 1 });
    const small = compact(fresh(messages), { budgetTokens: 300, cut, model: 'gpt-4o', now: 1 });
    // (The case this test is for: a thread headed by phrases at 300, by its asked request at 1,500.)
    expect(first.ok && small.ok && JSON.stringify(first.record.threads?.map((t) => t.head))).not.toBe(small.ok && JSON.stringify(small.record.threads?.map((t) => t.head)));
  });

  it('a revised previous record (a line edited away) is read again, not taken for the one before', () => {
    const base = vaultChat();
    const more = [...base, ...base.map((m) => ({ ...m, id: `${m.id}-b`, createdAt: m.createdAt + 1 }))];
    const firstCut = base.length;
    const one = compact(fresh(more), { budgetTokens: 1500, cut: firstCut, model: 'gpt-4o', now: 1 });
    if (!one.ok) throw new Error('first round failed');
    const fact = one.record.facts[0];
    if (!fact) throw new Error('no fact');
    // The edited record as the session makes it: a new object, the fact removed by an edit.
    const edited: CompactionRecord = { ...one.record, facts: one.record.facts.map((f) => ({ ...f })), edits: [{ section: 'facts', key: lineKey(fact.text), removed: true, ...(fact.sources[0] ? { source: fact.sources[0] } : {}) }] };
    const options = (previous: CompactionRecord): CompactOptions => ({ budgetTokens: 1500, cut: more.length - 2, model: 'gpt-4o', now: 2, previous });
    const same = fresh(more);
    const plain = run(same, options(one.record));
    const revised = run(same, options(edited));
    expect(plain).toBe(run(fresh(more), options(one.record)));
    expect(revised).toBe(run(fresh(more), options(edited)));
    expect(revised).not.toBe(plain);
  });

  it('generated conversations: a second compaction with another budget and focus gives the cold block', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 60, max: 900 }), fc.integer({ min: 60, max: 2000 }), fc.constantFrom(undefined, 'garden', 'plan tests budget'), (messages, budgetTokens, otherBudget, focus) => {
        const warm = fresh(messages);
        const first = { budgetTokens, model: 'gpt-4o', now: 1 };
        expect(run(warm, first)).toBe(run(fresh(messages), first));
        const second = { budgetTokens: otherBudget, model: 'gpt-4o', now: 1, ...(focus ? { focus } : {}) };
        const coldSecond = run(fresh(messages), second);
        expect(run(warm, second)).toBe(coldSecond);
        expect(run(warm, first)).toBe(run(fresh(messages), first));
        // Read as they arrived, then compacted with the other options first.
        const arrived = fresh(messages);
        for (const m of arrived) prepareMessage(m);
        expect(run(arrived, second)).toBe(coldSecond);
      }),
      { numRuns: 100 },
    );
  });

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
    expectArrivedAsCold(messages, [300, 1200]);
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

  it('a message changed in place (content or role) is read again, whatever was kept with it', () => {
    // (message-memo.ts keeps one record per message object — sentences, references, rules, error
    // lines, words, stamp, request, tool result, list heads — dropped when the content or role
    // changes; the sentences keep their own length, section line and word marks.)
    for (const [, make] of chats) {
      const base = make();
      const cut = base.length - 2;
      const options: CompactOptions = { budgetTokens: 900, cut, model: 'gpt-4o', now: 1 };
      const same = fresh(base);
      for (const m of same) prepareMessage(m);
      run(same, options);
      // Rewritten in place: every user message says something else, and one reply turns into the user's.
      const edited = (ms: ChatMessage[]): ChatMessage[] =>
        ms.map((m, i) => {
          if (m.role === 'user') m.content = `${m.content} I decided to keep the Lisbon budget at 420 euros, and the tests should pass on Python 3.12 instead.`;
          else if (m.role === 'assistant' && !m.toolCalls?.length && i === 1) (m as { role: string }).role = 'user';
          return m;
        });
      const changed = edited(same);
      expect(run(changed, options)).toBe(run(edited(fresh(base)), options));
      expect(run(changed, options)).toBe(run(edited(fresh(base)), options));
    }
  });

  it('an agent run whose task tells the reporter\'s story and reports the bug: read ahead, the prior is the cold one', () => {
    // (Whether a user's sentence reports the bug is asked once per sentence, fact-prior.ts; a
    // story sentence ranks lower. Both kinds here, each many times.)
    const messages: ChatMessage[] = [];
    for (let i = 0; i < 30; i++) {
      const t = 1_700_000_000_000 + i * 60_000;
      messages.push({ id: `u${i}`, createdAt: t, role: 'user', content: `I upgraded the ledger app to version 2.${i} last week and I reinstalled my venv twice. The \`sum_entries()\` call should count March entries, but it returns ${i} instead. I tried it on my laptop too.` });
      messages.push({ id: `a${i}`, createdAt: t + 1, role: 'assistant', content: `Reading \`ledger/sum.py\` first.`, toolCalls: [{ id: `c${i}`, name: 'bash', arguments: JSON.stringify({ command: `grep -n sum_entries ledger/sum.py # ${i}` }) }] });
      messages.push({ id: `t${i}`, createdAt: t + 2, role: 'tool', toolCallId: `c${i}`, content: `${10 + i}:def sum_entries(rows):\nAssertionError: expected ${i + 1} got ${i}` });
    }
    expectArrivedAsCold(messages, [200, 900]);
  });
});
