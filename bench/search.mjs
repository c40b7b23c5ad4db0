// npm run bench:search — the ranked search (src/core/search.ts) on the retention kit's dialogues
// whose probes mark their evidence messages (LoCoMo, LongMemEval; read in place from
// ../shared/bench/retention, never copied). Each probe's question is the query over the whole
// conversation; a hit@k is any evidence message among the top k. Compared: the project's search,
// a plain BM25 (k1 1.2, b 0.75, no stemming, no stopwords dropped), MiniSearch (when installed;
// it is not a dependency) and "the last k messages", on all conversations and on each half (A/B).
// Then the built CLI's time for all the questions of one conversation (when dist/cli.js exists),
// and search time and index memory on 1,000- and 10,000-message conversations built from the
// kit's messages.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** The project's history search, as the CLI and the panel run it: each message's text and who said
 * it (the speaker's name when the kit gives one); the asker is the user, whose questions these are. */
function ours(messages, speakers) {
  const index = new core.HistoryIndex((i) => messages[i].content ?? '');
  messages.forEach((m, i) => index.add(i, m.content ?? '', m.role, speakers?.[m.role] ?? m.role));
  return (q, k) => index.search(q, k, 'user').map((h) => h.key);
}

function plain(messages) {
  const index = new core.SearchIndex({ stem: false, stopwordWeight: 1 });
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

/** Two halves of a dataset's conversations (sorted by id, alternating), for checking that what was
 * chosen on one half holds on the other: the history ranking's settings were picked on half A and
 * checked on half B (and the other way round) — see HISTORY_INDEX_OPTIONS in search-history.ts. */
function halfOf(ids) {
  const sorted = [...ids].sort();
  return new Map(sorted.map((id, i) => [id, i % 2 ? 'B' : 'A']));
}

function evaluate(dataset) {
  const data = JSON.parse(readFileSync(new URL(`${dataset}.json`, KIT), 'utf8'));
  const byId = new Map(data.transcripts.map((t) => [t.id, t]));
  const half = halfOf(byId.keys());
  const methods = { ours, 'plain BM25': plain, ...(MiniSearch ? { MiniSearch: mini } : {}), 'last k': lastK };
  const zero = () => ({ all: KS.map(() => 0), A: KS.map(() => 0), B: KS.map(() => 0) });
  const hits = Object.fromEntries(Object.keys(methods).map((m) => [m, zero()]));
  const probes = { all: 0, A: 0, B: 0 };
  const rankers = new Map();
  for (const probe of data.probes) {
    const t = byId.get(probe.transcriptId);
    if (!t || !probe.evidenceMsgIdx?.length) continue;
    const h = half.get(t.id);
    probes.all++;
    probes[h]++;
    for (const [name, make] of Object.entries(methods)) {
      const key = `${name}|${t.id}`;
      if (!rankers.has(key)) rankers.set(key, make(t.messages, t.speakers));
      const top = rankers.get(key)(probe.question, 10);
      KS.forEach((k, j) => {
        if (!top.slice(0, k).some((i) => probe.evidenceMsgIdx.includes(i))) return;
        hits[name].all[j]++;
        hits[name][h][j]++;
      });
    }
  }
  const rate = (n, of) => (of ? n / of : 0).toFixed(3).padStart(6);
  console.log(`\n${dataset}: ${probes.all} probes over ${data.transcripts.length} conversations (half A ${probes.A} probes, half B ${probes.B})`);
  console.log('method        hit@1   hit@5   hit@10    hit@5 A  hit@5 B');
  for (const [name, h] of Object.entries(hits)) {
    console.log(`${name.padEnd(12)}  ${h.all.map((n) => rate(n, probes.all)).join('  ')}    ${rate(h.A[1], probes.A)}   ${rate(h.B[1], probes.B)}`);
  }
  const ratio = (part) => (hits.ours[part][1] / hits['plain BM25'][part][1]).toFixed(2);
  console.log(`ours / plain BM25 at hit@5: ${ratio('all')}× (half A ${ratio('A')}×, half B ${ratio('B')}×)`);
  return data;
}

/** The built command line (`npm run build:cli`) answering every question of one conversation in
 * one process: the conversation with the most probes, as an OpenAI messages array in a temporary
 * folder (deleted after), wall time of the whole process including Node's start. */
function cliTiming(data) {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  if (!existsSync(cli)) {
    console.log('\nCLI: dist/cli.js not built (npm run build:cli), not timed');
    return;
  }
  const perConversation = new Map();
  for (const p of data.probes) perConversation.set(p.transcriptId, [...(perConversation.get(p.transcriptId) ?? []), p.question]);
  const [id, questions] = [...perConversation.entries()].sort((a, b) => b[1].length - a[1].length)[0];
  const t = data.transcripts.find((x) => x.id === id);
  const dir = mkdtempSync(join(tmpdir(), 'compact-search-'));
  try {
    writeFileSync(join(dir, 'conversation.json'), JSON.stringify(t.messages.map((m) => ({ role: m.role, content: m.content ?? '' }))));
    writeFileSync(join(dir, 'queries.txt'), questions.map((q) => q.replace(/\s+/g, ' ')).join('\n'));
    const runs = [];
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      const out = execFileSync(process.execPath, [cli, 'search', join(dir, 'conversation.json'), '--queries', join(dir, 'queries.txt'), '-k', '10', '-f', 'json'], { encoding: 'utf8' });
      runs.push(performance.now() - t0);
      if (out.trim().split('\n').length !== questions.length) throw new Error('the CLI printed one line per query? it did not');
    }
    // Wall time counts the machine's other work too: the load is printed with it.
    console.log(
      `\nCLI (dist/cli.js): ${questions.length} questions over ${id} (${t.messages.length} messages) in one process: best ${Math.min(...runs).toFixed(0)} ms of ${runs.map((ms) => ms.toFixed(0)).join(', ')} ms (target well under 2,000 ms; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function scale(n) {
  const pool = ['locomo', 'longmemeval'].flatMap((d) => JSON.parse(readFileSync(new URL(`${d}.json`, KIT), 'utf8')).transcripts.flatMap((t) => t.messages));
  const messages = Array.from({ length: n }, (_, i) => pool[i % pool.length]);
  const chars = messages.reduce((s, m) => s + (m.content ?? '').length, 0);
  const queries = ['what bakery did you recommend', 'basketball team season', 'painting of a sunset', 'trip to Japan last summer', '"shooting guard"'];
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const index = new core.HistoryIndex((i) => messages[i].content ?? '');
  messages.forEach((m, i) => index.add(i, m.content ?? '', m.role));
  const built = performance.now() - t0;
  globalThis.gc?.();
  const memory = process.memoryUsage().heapUsed - before;
  const runs = 20;
  const t1 = performance.now();
  for (let r = 0; r < runs; r++) for (const q of queries) index.search(q, 10, 'user');
  const per = (performance.now() - t1) / (runs * queries.length);
  console.log(
    `${String(n).padStart(6)} messages, ${(chars / 1e6).toFixed(2)} M chars: index ${built.toFixed(0)} ms, ${(memory / 1e6).toFixed(1)} MB heap (${(memory / (chars * 2)).toFixed(2)}× the UTF-16 text), search ${per.toFixed(2)} ms`,
  );
  return index.size; // keeps the index alive until measured
}

const locomo = evaluate('locomo');
evaluate('longmemeval');
cliTiming(locomo);
console.log(`\nscale${globalThis.gc ? '' : ' (run with --expose-gc for steadier memory figures)'}:`);
scale(1000);
scale(10000);
