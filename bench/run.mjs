// `npm run bench`: the core's performance figures, and the cost of saving a conversation note
// (bench/save.mjs), in one run. Prints figures; asserts nothing
// (machines here are shared and noisy: timings belong in reports, never in tests).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TokenTracker, estimateTokens } from '../src/core/index.ts';
import { benchSave } from './save.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Time `fn` (which does `ops` operations) several times; median nanoseconds per operation. */
function nsPerOp(fn, ops, reps = 15) {
  fn(); // warm-up
  const samples = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    fn();
    samples.push(((performance.now() - t0) * 1e6) / ops);
  }
  return median(samples);
}

// ── Tracker append cost: O(message), so appending at 10,000 messages costs what it does at 10. ──
const sentence = 'Compaction keeps the [[Project plan]] and the open tasks; 会议记录 was read at 14:30. ';
const makeMessage = (i) => ({ id: `m${i}`, createdAt: i, role: i % 2 ? 'assistant' : 'user', content: sentence.repeat(1 + (i % 5)) });

function appendCost(size) {
  const tracker = new TokenTracker({ model: 'gpt-4o', systemPrompt: 'You are a helpful assistant.' });
  for (let i = 0; i < size; i++) tracker.append(makeMessage(i));
  const batch = 2000;
  let next = size;
  return nsPerOp(() => {
    const start = next;
    for (let i = 0; i < batch; i++) tracker.append(makeMessage(next++));
    for (let i = start; i < next; i++) tracker.remove(`m${i}`);
  }, batch * 2);
}

const small = appendCost(10);
const large = appendCost(10_000);
console.log('## Token tracker: append + remove cost');
console.log(`at 10 messages:     ${small.toFixed(0)} ns/op`);
console.log(`at 10,000 messages: ${large.toFixed(0)} ns/op`);
console.log(`ratio (10,000 / 10): ${(large / small).toFixed(2)}  (expected ≤ 1.5)`);

// ── Estimator speed against gpt-tokenizer's exact encode ──
// (Joined, not built with +=: one flat string, as a message's text is. A string grown by `+=` is a
// chain of pieces that every character read goes through, which costs a pass a fifth of its time.)
const parts = [];
const corpus = join('..', 'shared', 'bench', 'tokens', 'corpus');
if (existsSync(corpus)) {
  for (const dir of readdirSync(corpus, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(corpus, dir.name))) parts.push(readFileSync(join(corpus, dir.name, file), 'utf8'), '\n');
  }
} else {
  parts.push((sentence + '\n```ts\nconst x = { a: 1, b: [2, 3] };\n```\n').repeat(2000));
}
const text = parts.join('');
const { encode } = await import('gpt-tokenizer/encoding/o200k_base');
// Side by side, round after round (a shared machine's load moves both alike): the ratio is the
// median of the rounds' ratios, each of one encode against the median of five estimates.
const speedRounds = [];
const estimatorRounds = [];
const exactRounds = [];
nsPerOp(() => estimateTokens(text, 'gpt-4o'), 1, 5);
encode(text);
for (let r = 0; r < 9; r++) {
  const est = nsPerOp(() => estimateTokens(text, 'gpt-4o'), 1, 5);
  const exact = nsPerOp(() => encode(text), 1, 1);
  estimatorRounds.push(est);
  exactRounds.push(exact);
  speedRounds.push(exact / est);
}
const estimatorNs = median(estimatorRounds);
const exactNs = median(exactRounds);
console.log('\n## Estimator speed');
console.log(`text: ${text.length.toLocaleString('en')} UTF-16 units${existsSync(corpus) ? ' (../shared/bench/tokens corpus, read in place)' : ' (generated)'}`);
console.log(`estimateTokens:          ${(estimatorNs / 1e6).toFixed(2)} ms (${((estimatorNs / 1e3) / (text.length / 1000)).toFixed(2)} µs per 1k chars)`);
console.log(`gpt-tokenizer o200k encode: ${(exactNs / 1e6).toFixed(2)} ms`);
console.log(`speed ratio: ${median(speedRounds).toFixed(1)}× faster  (target ≥ 50×; median of ${speedRounds.length} rounds side by side)`);

// ── Compaction time: a 200k-token, 1,000-message conversation against one toLowerCase() +
// whitespace-split pass over the same text (the cheapest thing that reads every word), in one run.
const { compact, estimateMessageTokens, prepareMessage } = await import('../src/core/index.ts');
const TOPICS = ['garden', 'budget', 'migration', 'release', 'thesis', 'recipe', 'roadmap', 'invoice', 'travel', 'lecture'];
const NAMES = ['Priya', 'Jonas', 'Mei', 'Carlos', 'Aiko', 'Fatima', 'Lars', 'Noor'];
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
function prose(words) {
  let s = '';
  while (s.length < words * 6) {
    const n = Math.floor(rand() * 900) + 10;
    s += `${pick(NAMES)} said the ${pick(TOPICS)} note [[${pick(TOPICS)}/${pick(NAMES)}]] needs ${n} more entries by ${1 + (n % 28)} March, `;
    s += `and we decided to keep the ${pick(TOPICS)} plan simple. 会议记录 ${n}. `;
  }
  return s;
}
function bigConversation(count) {
  const messages = [];
  for (let i = 0; messages.length < count; i++) {
    const t = 1_700_000_000_000 + i * 60_000;
    messages.push({ id: `u${i}`, createdAt: t, role: 'user', content: `Please update the ${pick(TOPICS)} note. ${prose(120)}` });
    if (i % 3 === 0) {
      const id = `c${i}`;
      messages.push({ id: `a${i}`, createdAt: t + 1, role: 'assistant', content: 'Reading it first.', toolCalls: [{ id, name: 'read_note', arguments: JSON.stringify({ path: `${pick(TOPICS)}/${i}.md` }) }] });
      messages.push({ id: `t${i}`, createdAt: t + 2, role: 'tool', toolCallId: id, content: `# Note ${i}\n${prose(100)}\n\`\`\`ts\nconst total = items.reduce((a, b) => a + b.size, 0);\n\`\`\`\nTypeError: cannot read properties of undefined (reading 'size')` });
    } else {
      messages.push({ id: `a${i}`, createdAt: t + 1, role: 'assistant', content: `I've updated it. ${prose(140)}` });
    }
  }
  return messages.slice(0, count);
}
const big = bigConversation(1000);
const bigText = big.map((m) => m.content + (m.toolCalls ? m.toolCalls.map((c) => c.arguments).join('') : '')).join('\n');
const bigTokens = big.reduce((s, m) => s + estimateTokens(m.content, 'gpt-4o'), 0);
const cut = big.length - 8;
let sink = 0;
// Each round, on fresh copies of the messages (objects the core has never seen, so no per-message
// cache helps):
//  - first: compacts messages never read before — the worst case, e.g. right after a restart;
//  - prepared: the plugin's own path — the session reads each message for compaction as it is
//    completed (`prepareMessage`, O(that message), timed apart), as the token tracker counts it
//    then, and the compaction before a later request finds them read;
//  - repeated: the same messages compacted again (preview, "Compact now" with a focus, a retry);
// then times one toLowerCase() + whitespace split of the same text. Taking them side by side and
// the median of the per-round ratios keeps a shared machine's load out of the ratios. Per-message
// token figures are at hand in the plugin (the tracker), so they are computed before the clock.
const split = () => bigText.toLowerCase().split(/\s+/).length;
const compactOnce = (messages, tokens) => {
  const res = compact(messages, { budgetTokens: 2000, cut, model: 'gpt-4o', tokensOf: (m) => tokens.get(m) });
  return res.ok ? res.block.length : 0;
};
const timed = (fn) => {
  const t0 = performance.now();
  sink += fn();
  return (performance.now() - t0) * 1e6;
};
const copy = () => {
  const messages = big.map((m) => ({ ...m }));
  return [messages, new Map(messages.map((m) => [m, estimateMessageTokens(m, 'gpt-4o')]))];
};
// Warm-up rounds let the JIT settle (each round still compacts fresh objects the core has never
// seen): the figure is the steady cost, not the first calls' compilation.
for (let w = 0; w < 6; w++) {
  const [warm, warmTokens] = copy();
  compactOnce(warm, warmTokens);
  split();
}
const ROUNDS = 21;
const rounds = { first: [], prepared: [], prepare: [], repeated: [], split: [], firstRatio: [], preparedRatio: [], repeatedRatio: [] };
for (let r = 0; r < ROUNDS; r++) {
  const [fresh, freshTokens] = copy();
  const first = timed(() => compactOnce(fresh, freshTokens));
  const repeated = timed(() => compactOnce(fresh, freshTokens));
  const [arrived, arrivedTokens] = copy();
  rounds.prepare.push(
    timed(() => {
      for (const m of arrived) prepareMessage(m);
      return 0;
    }),
  );
  const prepared = timed(() => compactOnce(arrived, arrivedTokens));
  const splitNs = timed(split);
  rounds.first.push(first);
  rounds.prepared.push(prepared);
  rounds.repeated.push(repeated);
  rounds.split.push(splitNs);
  rounds.firstRatio.push(first / splitNs);
  rounds.preparedRatio.push(prepared / splitNs);
  rounds.repeatedRatio.push(repeated / splitNs);
}
const splitNs = median(rounds.split);
console.log('\n## Compaction time');
console.log(`conversation: ${big.length} messages, ~${bigTokens.toLocaleString('en')} tokens (estimated), ${bigText.length.toLocaleString('en')} UTF-16 units`);
console.log(`toLowerCase + whitespace split:                 ${(splitNs / 1e6).toFixed(1)} ms`);
console.log(`first compaction of messages never read:        ${(median(rounds.first) / 1e6).toFixed(1)} ms, ratio ${median(rounds.firstRatio).toFixed(1)}×  (target ≤ 3×)`);
console.log(`compaction of messages read as they arrived:    ${(median(rounds.prepared) / 1e6).toFixed(1)} ms, ratio ${median(rounds.preparedRatio).toFixed(1)}×  (target ≤ 1.5×; the plugin's path; reading them: ${(median(rounds.prepare) / 1e3 / big.length).toFixed(1)} µs per message, ${(median(rounds.prepare) / 1e6).toFixed(1)} ms for all ${big.length})`);
console.log(`repeated compaction (same messages):            ${(median(rounds.repeated) / 1e6).toFixed(1)} ms, ratio ${median(rounds.repeatedRatio).toFixed(1)}×  (target ≤ 1.5×)${sink < 0 ? '' : ''}`);
console.log(`(ratios: median over ${ROUNDS} rounds of compaction time / split time measured side by side)`);

await benchSave();
