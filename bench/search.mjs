// npm run bench:search — the ranked search (src/core/search.ts) on the retention kit's dialogues
// whose probes mark their evidence messages (LoCoMo, LongMemEval; read in place from
// ../shared/bench/retention, never copied). Each probe's question is the query over the whole
// conversation; a hit@k is any evidence message among the top k. Compared: the project's search,
// a plain BM25 (k1 1.2, b 0.75, no stemming, no stopwords dropped), MiniSearch (when installed;
// it is not a dependency) and "the last k messages". Then search time and index memory on 1,000-
// and 10,000-message conversations built from the kit's messages.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadCore } from './retention-adapter.mjs';

const KIT = new URL('../../shared/bench/retention/data/', import.meta.url);
const KS = [1, 5, 10];
const core = await loadCore();
const require = createRequire(import.meta.url);
let MiniSearch = null;
try {
  MiniSearch = require('minisearch');
} catch {
  /* optional */
}

/** What the project indexes for a message: its text and who said it (the speaker's name when the
 * kit gives one), as the history tool does. */
function ours(messages, speakers) {
  const index = new core.SearchIndex({ textOf: (i) => messages[i].content ?? '' });
  messages.forEach((m, i) => index.add(i, core.historyFields(m.content ?? '', speakers?.[m.role] ?? m.role)));
  return (q, k) => core.rankWithNeighbours(index, q, k).map((h) => h.key);
}

function plain(messages) {
  const index = new core.SearchIndex({ stem: false, dropStopwords: false });
  messages.forEach((m, i) => index.add(i, m.content ?? ''));
  return (q, k) => index.search(q, k).map((h) => h.key);
}

function mini(messages) {
  const ms = new MiniSearch({ fields: ['text'], idField: 'id', searchOptions: { prefix: true, fuzzy: 0.2, combineWith: 'OR' } });
  ms.addAll(messages.map((m, i) => ({ id: i, text: m.content ?? '' })));
  return (q, k) => ms.search(q).slice(0, k).map((r) => r.id);
}

function lastK(messages) {
  return (_q, k) => messages.map((_, i) => i).slice(-k);
}

function evaluate(dataset) {
  const data = JSON.parse(readFileSync(new URL(`${dataset}.json`, KIT), 'utf8'));
  const byId = new Map(data.transcripts.map((t) => [t.id, t]));
  const methods = { ours, 'plain BM25': plain, ...(MiniSearch ? { MiniSearch: mini } : {}), 'last k': lastK };
  const hits = Object.fromEntries(Object.keys(methods).map((m) => [m, KS.map(() => 0)]));
  const rankers = new Map();
  let probes = 0;
  for (const probe of data.probes) {
    const t = byId.get(probe.transcriptId);
    if (!t || !probe.evidenceMsgIdx?.length) continue;
    probes++;
    for (const [name, make] of Object.entries(methods)) {
      const key = `${name}|${t.id}`;
      if (!rankers.has(key)) rankers.set(key, make(t.messages, t.speakers));
      const top = rankers.get(key)(probe.question, 10);
      KS.forEach((k, j) => {
        if (top.slice(0, k).some((i) => probe.evidenceMsgIdx.includes(i))) hits[name][j]++;
      });
    }
  }
  console.log(`\n${dataset}: ${probes} probes over ${data.transcripts.length} conversations`);
  console.log('method        hit@1   hit@5   hit@10');
  for (const [name, h] of Object.entries(hits)) console.log(`${name.padEnd(12)}  ${h.map((n) => (n / probes).toFixed(3).padStart(6)).join('  ')}`);
  console.log(`ours / plain BM25 at hit@5: ${(hits.ours[1] / hits['plain BM25'][1]).toFixed(2)}×`);
}

function scale(n) {
  const pool = ['locomo', 'longmemeval'].flatMap((d) => JSON.parse(readFileSync(new URL(`${d}.json`, KIT), 'utf8')).transcripts.flatMap((t) => t.messages));
  const messages = Array.from({ length: n }, (_, i) => pool[i % pool.length]);
  const chars = messages.reduce((s, m) => s + (m.content ?? '').length, 0);
  const queries = ['what bakery did you recommend', 'basketball team season', 'painting of a sunset', 'trip to Japan last summer', '"shooting guard"'];
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const index = new core.SearchIndex({ textOf: (i) => messages[i].content ?? '' });
  messages.forEach((m, i) => index.add(i, core.historyFields(m.content ?? '', m.role)));
  const built = performance.now() - t0;
  globalThis.gc?.();
  const memory = process.memoryUsage().heapUsed - before;
  const runs = 20;
  const t1 = performance.now();
  for (let r = 0; r < runs; r++) for (const q of queries) core.rankWithNeighbours(index, q, 10);
  const per = (performance.now() - t1) / (runs * queries.length);
  console.log(
    `${String(n).padStart(6)} messages, ${(chars / 1e6).toFixed(2)} M chars: index ${built.toFixed(0)} ms, ${(memory / 1e6).toFixed(1)} MB heap (${(memory / (chars * 2)).toFixed(2)}× the UTF-16 text), search ${per.toFixed(2)} ms`,
  );
  return index.size; // keeps the index alive until measured
}

evaluate('locomo');
evaluate('longmemeval');
console.log(`\nscale${globalThis.gc ? '' : ' (run with --expose-gc for steadier memory figures)'}:`);
scale(1000);
scale(10000);
