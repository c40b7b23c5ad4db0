// `npm run bench:retention`: the retention kit (../shared/bench/retention, read and run in place,
// never copied) scoring our compactor at budgets 500, 1,000 and 2,000 on every dataset, plus chain
// mode, next to the kit's truncation baselines run the same way. Prints markdown; asserts nothing.
//
//   node bench/retention.mjs [--no-baselines] [--budgets 500,1000,2000] [--chain-budgets 1000]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';

const KIT = join('..', 'shared', 'bench', 'retention');
const SCORE = join(KIT, 'score.mjs');
const OURS = join('bench', 'retention-adapter.mjs');
const BASELINES = ['truncate-head', 'truncate-tail'];

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const list = (name, fallback) => {
  const i = args.indexOf(name);
  return (i >= 0 ? args[i + 1] : fallback).split(',').map(Number);
};
const budgets = list('--budgets', '500,1000,2000');
const chainBudgets = list('--chain-budgets', '1000');
const withBaselines = !flag('--no-baselines');

if (!existsSync(SCORE)) {
  console.error(`The retention kit is not at ${SCORE}; run this from the project root with ../shared present.`);
  process.exit(1);
}

/** Runs the scorer once; resolves to its JSON lines. */
function score(compactor, budget, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCORE, '--compactor', compactor, '--budget', String(budget), '--quiet', ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`score.mjs ${compactor} --budget ${budget} ${extra.join(' ')} exited ${code}\n${err.slice(-2000)}`));
      resolve(
        out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l)),
      );
    });
  });
}

/** Runs jobs with bounded concurrency (the scorer is single-threaded and CPU-bound). */
async function pool(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

const pct = (x) => (typeof x === 'number' ? (100 * x).toFixed(1) : '–');
const num = (x, d = 2) => (typeof x === 'number' ? x.toFixed(d) : '–');

const single = [];
for (const b of budgets) {
  single.push({ who: 'compact', budget: b, run: () => score(OURS, b, ['--quality']) });
  if (withBaselines) for (const name of BASELINES) single.push({ who: name, budget: b, run: () => score(join(KIT, 'adapters', `${name}.mjs`), b) });
}
const chained = [];
for (const b of chainBudgets) {
  chained.push({ who: 'compact', budget: b, run: () => score(OURS, b, ['--chain', '5', '--quality']) });
  if (withBaselines) chained.push({ who: 'truncate-head', budget: b, run: () => score(join(KIT, 'adapters', 'truncate-head.mjs'), b, ['--chain', '5']) });
}
const width = Math.max(1, Math.min(4, availableParallelism()));
const started = Date.now();
const singleOut = await pool(single.map((j) => j.run), width);
const chainOut = await pool(chained.map((j) => j.run), width);

const rows = new Map(); // `${dataset}|${who}|${budget}` → line
single.forEach((j, i) => {
  for (const line of singleOut[i]) rows.set(`${line.dataset}|${j.who}|${j.budget}`, line);
});
const datasets = [...new Set(singleOut.flat().map((l) => l.dataset))];

console.log(`## Retention (dev split, single shot), ${new Date().toISOString().slice(0, 10)}\n`);
console.log('Recall % / exact % (readability, over budget). Targets: dialogues ≥ 1.5× the best truncation baseline; swe-traj ≥ 95 / 90; readability ≥ 0.7; 0 over budget.\n');
console.log(`| dataset | adapter | ${budgets.map((b) => `budget ${b}`).join(' | ')} |`);
console.log(`|---|---|${budgets.map(() => '---:').join('|')}|`);
for (const ds of datasets) {
  for (const who of ['compact', ...(withBaselines ? BASELINES : [])]) {
    const cells = budgets.map((b) => {
      const l = rows.get(`${ds}|${who}|${b}`);
      return l ? `${pct(l.recall)} / ${pct(l.exact)} (${num(l.readability)}, ${l.overBudget ?? '–'})` : '–';
    });
    console.log(`| ${ds} | ${who} | ${cells.join(' | ')} |`);
  }
  if (withBaselines && ds !== 'swe-traj' && ds !== 'all') {
    const cells = budgets.map((b) => {
      const ours = rows.get(`${ds}|compact|${b}`)?.recall;
      const best = Math.max(...BASELINES.map((n) => rows.get(`${ds}|${n}|${b}`)?.recall ?? 0));
      return ours !== undefined && best > 0 ? `${(ours / best).toFixed(2)}×` : '–';
    });
    console.log(`| ${ds} | *compact ÷ best truncation* | ${cells.join(' | ')} |`);
  }
}
console.log('\n| dataset | budget | ms per compaction | tokens mean / max | readability min | chance recall % |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const ds of datasets) {
  for (const b of budgets) {
    const l = rows.get(`${ds}|compact|${b}`);
    if (l) console.log(`| ${ds} | ${b} | ${num(l.msPerCompaction)} | ${num(l.tokensMean, 0)} / ${l.tokensMax ?? '–'} | ${num(l.readabilityMin)} | ${pct(l.chanceRecall)} |`);
  }
}

// Summary quality (the kit's --quality metrics; its README defines each): targets coherence and
// sentenceIntegrity ≥ 0.95, glue3 ≤ 0.02, leadInRate ≤ 0.01, markupImbalance ≤ 0.02, nearDupLines ≤
// 0.01, goalValid ≥ 0.9, dateAnnotationsBad ≤ 5 % of dateAnnotations, boilerplate ≤ 0.05.
const Q = ['coherence', 'sentenceIntegrity', 'glue3', 'leadInRate', 'markupImbalance', 'nearDupLines', 'goalValid', 'goalMissing', 'boilerplate'];
console.log('\n## Summary quality (ours)\n');
console.log(`| dataset | budget | ${Q.join(' | ')} | date notes bad / all | facts per block |`);
console.log(`|---|---:|${Q.map(() => '---:').join('|')}|---:|---:|`);
for (const ds of datasets) {
  for (const b of budgets) {
    const q = rows.get(`${ds}|compact|${b}`)?.quality;
    if (!q) continue;
    console.log(`| ${ds} | ${b} | ${Q.map((k) => num(q[k], 3)).join(' | ')} | ${q.dateAnnotationsBad ?? '–'} / ${q.dateAnnotations ?? '–'} | ${num(q.factsMean, 1)} |`);
  }
}

console.log('\n## Chain mode (5 rounds, window 4,000)\n');
console.log('| dataset | adapter | budget | recall % round 1 / 2 / 3 / 4 / 5 | decay | exact % r1 → r5 | readability r1 → r5 | freshness | over budget |');
console.log('|---|---|---:|---|---:|---|---|---:|---:|');
chained.forEach((j, i) => {
  for (const l of chainOut[i]) {
    const r = l.chain?.rounds ?? [];
    if (!r.length) continue;
    const first = r[0];
    const last = r[r.length - 1];
    console.log(
      `| ${l.dataset} | ${j.who} | ${j.budget} | ${r.map((x) => pct(x.recall)).join(' / ')} | ${num(l.chain.decay)} | ${pct(first.exact)} → ${pct(last.exact)} | ${num(first.readability)} → ${num(last.readability)} | ${num(l.chain.freshness)} | ${r.reduce((s, x) => s + (x.overBudget ?? 0), 0)} |`,
    );
  }
});
console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s; baselines ${withBaselines ? 'run in place from the kit' : 'skipped'})`);
