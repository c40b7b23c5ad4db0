// Part of `npm run bench:search`: the search over many saved conversations (src/core/cross-search.ts).
// 1. The cross-search kit (../shared/bench/cross-search, read in place, never copied): each
//    question's earlier sessions indexed in-process, hit@1/5/10 by conversation beside the kit's own
//    two BM25 baselines (its baselines.mjs, imported in place), on all questions and on each half
//    (the kit's halves: questions alternating; the ranking was chosen on half 1 and checked on half 2).
//    No question date is in the kit: times are read against the week after the newest conversation
//    of each question's history, as the CLI does without --date (the plugin reads them against "now").
// 2. Data the kit does not hold: the retention kit's LoCoMo dialogues (../shared/bench/retention,
//    read in place), each session one conversation, each question ranked against its dialogue's
//    sessions (evidence turn → its session), beside one-document-per-session BM25; once with the
//    sessions' date stamps in their text as given, once with them as dates only (as plugin notes
//    keep them). Times read against the last session.
// 3. The index at scale: 100 and 1,000 synthetic conversations of 100 messages (text generated
//    here from a fixed word list and seed): build, one update (a message appended), one query, heap.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { loadCore } from './retention-adapter.mjs';

const KIT = new URL('../../shared/bench/cross-search/', import.meta.url);
const CUTS = [1, 5, 10];
const core = await loadCore();

async function kit() {
  if (!existsSync(new URL('sessions.json.gz', KIT))) {
    console.log('\ncross-search kit not found (../shared/bench/cross-search): skipped');
    return;
  }
  // eslint-disable-next-line no-unsanitized/method -- the kit's own module, a fixed path beside this repository
  const { sessionRanker, messageRanker } = await import(new URL('baselines.mjs', KIT).href);
  const data = JSON.parse(gunzipSync(readFileSync(new URL('sessions.json.gz', KIT))).toString('utf8'));
  const methods = ['ours', 'bm25 session', 'bm25 message'];
  const zero = () => CUTS.map(() => 0);
  const hits = { all: {}, 1: {}, 2: {} };
  for (const part of Object.values(hits)) for (const m of methods) part[m] = zero();
  const count = { all: 0, 1: 0, 2: 0 };
  const ms = [];
  data.questions.forEach((q, i) => {
    const half = (i % 2) + 1;
    count.all++;
    count[half]++;
    const t0 = performance.now();
    const index = new core.CrossIndex();
    for (const s of q.sessions) {
      const messages = s.messages.map((m) => ({ text: typeof m.content === 'string' ? m.content : '', role: m.role }));
      index.sync(s.file, messages, core.conversationDate(s.messages.map((m) => ({ createdAt: 0, content: typeof m.content === 'string' ? m.content : '' }))));
    }
    const ours = [...new Set(index.search(q.question, { limit: 50, asker: 'user', now: index.newestDate(), askedBy: index.newestDate() + 7 * 86_400_000 }).map((h) => h.conversation))];
    ms.push(performance.now() - t0);
    const files = q.sessions.map((s) => ({ name: s.file, messages: s.messages }));
    const ranked = { ours, 'bm25 session': sessionRanker(files)(q.question, 10), 'bm25 message': messageRanker(files)(q.question, 10) };
    const ev = new Set(q.evidenceFiles);
    for (const m of methods) {
      CUTS.forEach((c, j) => {
        if (!ranked[m].slice(0, c).some((f) => ev.has(f))) return;
        hits.all[m][j]++;
        hits[half][m][j]++;
      });
    }
  });
  const pct = (n, of) => ((100 * n) / of).toFixed(1).padStart(6);
  console.log(`\ncross-conversation search (${data.questions.length} questions of the kit, ${data.questions.reduce((s, q) => s + q.sessions.length, 0)} conversations)`);
  console.log('part    method           hit@1  hit@5 hit@10');
  for (const part of ['all', 1, 2]) {
    for (const m of methods) console.log(`${String(part === 'all' ? 'all' : `half ${part}`).padEnd(8)}${m.padEnd(15)}${hits[part][m].map((n) => pct(n, count[part])).join(' ')}`);
    const better = Math.max(hits[part]['bm25 session'][0], hits[part]['bm25 message'][0]);
    console.log(`${''.padEnd(8)}ours / better BM25 at hit@1: ${(hits[part].ours[0] / better).toFixed(3)}× (target 1.04×)`);
  }
  ms.sort((a, b) => a - b);
  console.log(`in-process index + search per question: median ${ms[Math.floor(ms.length / 2)].toFixed(0)} ms`);
}

const RETENTION = new URL('../../shared/bench/retention/data/locomo.json', import.meta.url);

async function locomo() {
  if (!existsSync(RETENTION)) {
    console.log('\nretention kit not found (../shared/bench/retention): LoCoMo cross-session check skipped');
    return;
  }
  // eslint-disable-next-line no-unsanitized/method -- the kit's own module, a fixed path beside this repository
  const { sessionRanker } = await import(new URL('baselines.mjs', KIT).href);
  const data = JSON.parse(readFileSync(RETENTION, 'utf8'));
  const dateOf = (text) => core.conversationDate([{ createdAt: 0, content: text }]);
  console.log('\nLoCoMo sessions as conversations (data the kit does not hold): hit@1 / hit@5 by session');
  for (const strip of [false, true]) {
    const hits = { ours: [0, 0], bm25: [0, 0] };
    let n = 0;
    for (const t of data.transcripts) {
      const sessionOf = [];
      const sessions = [];
      t.messages.forEach((m, i) => {
        const at = dateOf(m.content);
        if (at || i === 0) sessions.push({ date: at, messages: [] });
        const text = strip && at ? m.content.replace(/^\([^)]*\)\s*/, '') : m.content;
        sessions[sessions.length - 1].messages.push({ role: m.role, text });
        sessionOf.push(sessions.length - 1);
      });
      const index = new core.CrossIndex();
      sessions.forEach((s, k) => index.sync(k, s.messages, s.date));
      const now = index.newestDate();
      const files = sessions.map((s, k) => ({ name: String(k), messages: s.messages.map((m) => ({ role: m.role, content: m.text })) }));
      const bm25 = sessionRanker(files);
      for (const p of data.probes.filter((x) => x.transcriptId === t.id)) {
        const ev = new Set(p.evidenceMsgIdx.map((i) => sessionOf[i]));
        const ours = [...new Set(index.search(p.question, { limit: 50, asker: 'user', now }).map((h) => h.conversation))];
        const base = bm25(p.question, 10).map(Number);
        n++;
        [1, 5].forEach((c, j) => {
          if (ours.slice(0, c).some((k) => ev.has(k))) hits.ours[j]++;
          if (base.slice(0, c).some((k) => ev.has(k))) hits.bm25[j]++;
        });
      }
    }
    const pct = (x) => ((100 * x) / n).toFixed(1);
    console.log(`  ${strip ? 'dates as metadata' : 'stamps in the text'} (${n} questions): ours ${pct(hits.ours[0])} / ${pct(hits.ours[1])}, bm25 session ${pct(hits.bm25[0])} / ${pct(hits.bm25[1])}, ours / bm25 at hit@1 ${(hits.ours[0] / hits.bm25[0]).toFixed(3)}×`);
  }
}

/** A deterministic pseudo-random stream (mulberry32), so every run indexes the same text. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = `garden pond liner budget charity donation recipe bread flour oven trip train ticket hotel museum
painting guitar lesson amplifier camera lens battery router thermostat invoice tax report meeting project deadline
marathon training shoes knee doctor therapist appointment insurance car service tyre brake coffee grinder kettle
novel chapter library author poem verse school course exam certificate language verb grammar holiday beach tent
hiking trail map compass weather forecast rain storm roof gutter paint wall shelf drill screw nail cabinet kitchen`.split(/\s+/);
const GLUE = 'the a of to and in that I you we it is was for on with my your this have had be can will would'.split(' ');

/** A message of 10–60 words: mostly glue words, a Zipf-ish pick of topic words. */
function message(rand) {
  const n = 10 + Math.floor(rand() * 50);
  const out = [];
  for (let i = 0; i < n; i++) out.push(rand() < 0.55 ? GLUE[Math.floor(rand() * GLUE.length)] : WORDS[Math.floor(WORDS.length * rand() * rand())]);
  return `${out.join(' ')}.`;
}

/** CPU time of this process since `from` (user + system), in ms: steadier than wall time on a
 * machine busy with other work. */
function cpuMs(from) {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

function scale(conversations, perConversation = 100) {
  const rand = random(conversations);
  const day = 86_400_000;
  const convs = Array.from({ length: conversations }, (_, c) => ({
    key: `Chats/${c}.md`,
    date: Date.UTC(2025, 0, 1) + c * day,
    messages: Array.from({ length: perConversation }, (_, i) => ({ text: message(rand), role: i % 2 ? 'assistant' : 'user' })),
  }));
  const chars = convs.reduce((s, c) => s + c.messages.reduce((a, m) => a + m.text.length, 0), 0);
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const index = new core.CrossIndex();
  for (const c of convs) index.sync(c.key, c.messages, c.date);
  const build = performance.now() - t0;
  const buildCpu = cpuMs(c0);
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - before;
  const t1 = performance.now();
  const updates = 100;
  for (let u = 0; u < updates; u++) index.append(convs[u % conversations].key, { text: message(rand), role: 'user' });
  const update = (performance.now() - t1) / updates;
  const queries = ['pond liner budget', 'which charity did you suggest', 'guitar amplifier lesson two weeks ago', 'what did I say about the knee doctor', '"train ticket"'];
  const runs = 10;
  const now = Date.UTC(2025, 0, 1) + conversations * day;
  const t2 = performance.now();
  const c2 = process.cpuUsage();
  for (let r = 0; r < runs; r++) for (const q of queries) index.search(q, { limit: 10, asker: 'user', now });
  const query = (performance.now() - t2) / (runs * queries.length);
  const queryCpu = cpuMs(c2) / (runs * queries.length);
  console.log(
    `${String(conversations).padStart(5)} conversations × ${perConversation} messages (${(chars / 1e6).toFixed(1)} M chars): build ${build.toFixed(0)} ms (CPU ${buildCpu.toFixed(0)} ms; target ≤ 1,000), one update ${(update * 1000).toFixed(0)} µs, one query ${query.toFixed(1)} ms (CPU ${queryCpu.toFixed(1)} ms; target ≤ 50), heap ${(heap / 1e6).toFixed(1)} MB (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`,
  );
  return index.size;
}

await kit();
await locomo();
console.log(`\ncross-conversation index at scale${globalThis.gc ? '' : ' (run with --expose-gc for steadier memory figures)'}:`);
scale(100);
scale(1000);
