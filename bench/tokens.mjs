#!/usr/bin/env node
// Token-estimator benchmark: runs the shared kit (../shared/bench/tokens/bench.mjs) once per
// tokenizer family of src/core/tokens.ts against that family's reference tokenizer, prints the
// kit's tables, then one summary: per family the worst per-category MAPE, the worst under-count
// and the speed against gpt-tokenizer's exact count (o200k_base).
//
//   npm run bench:tokens [-- --bias | --detail]     (extra flags go to every kit run)
//
// The kit runs from the repo root, under tsx, so it finds the reference tokenizers in node_modules
// (devDependencies) and can import the TypeScript estimator.
// Speed: the kit times each run separately in wall time, which a busy machine skews (and tsx's
// loader slows everything it runs a little). The summary's ratio comes from timing here in CPU
// time, interleaved, best of several rounds: gpt-tokenizer against tokens.ts bundled by esbuild as
// the plugin ships it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadCorpus } from '../../shared/bench/tokens/lib/corpus.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const kit = resolve(root, '../shared/bench/tokens/bench.mjs'); // beside the repo on every machine
const extra = process.argv.slice(2);

// Llama 1/2's SentencePiece reference is optional (not a devDependency): shown when installed.
let hasLlama = true;
try {
  createRequire(join(root, 'package.json')).resolve('llama-tokenizer-js');
} catch {
  hasLlama = false;
}

const RUNS = [
  { family: 'o200k', estimator: 'bench/token-estimator.mjs', reference: 'o200k', refs: 'o200k', refSpeed: true },
  { family: 'claude', estimator: 'bench/token-estimator-claude.mjs', reference: 'claude', refs: 'claude' },
  { family: 'cl100k', estimator: 'bench/token-estimator-cl100k.mjs', reference: 'cl100k', refs: 'cl100k' },
  { family: 'llama', estimator: 'bench/token-estimator-llama.mjs', reference: 'cl100k', refs: hasLlama ? 'cl100k,llama' : 'cl100k' },
];

const results = [];
let refUsPerKChar = null;
for (const run of RUNS) {
  const args = ['--import', 'tsx', kit, '--estimator', run.estimator, '--name', `estimate (${run.family})`];
  args.push('--reference', run.reference, '--refs', run.refs, ...(run.refSpeed ? ['--ref-speed'] : []), ...extra);
  console.log(`\n# Family ${run.family} (reference ${run.reference})\n`);
  const child = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (child.stderr) process.stderr.write(child.stderr);
  if (child.status !== 0) {
    console.error(`error: the kit exited with ${child.status} for the ${run.family} family`);
    process.exit(child.status ?? 1);
  }
  const lines = child.stdout.trimEnd().split('\n');
  const summary = JSON.parse(lines.pop() ?? '{}');
  console.log(lines.join('\n'));
  if (run.refSpeed) {
    // "## Reference tokenizer speed" table: header row, separator, then the values row.
    const at = lines.findIndex((l) => l.startsWith('## Reference tokenizer speed'));
    const header = lines[at + 2]?.split('|').map((s) => s.trim());
    const values = lines[at + 4]?.split('|').map((s) => s.trim());
    const col = header?.indexOf('o200k') ?? -1;
    if (col > 0) refUsPerKChar = Number(values?.[col]);
  }
  results.push({ ...run, summary });
}

// ------------------------------------------------------------------ speed, interleaved
const texts = loadCorpus().map((sample) => sample.text);
const chars = texts.reduce((a, t) => a + t.length, 0);
const { countTokens } = createRequire(join(root, 'package.json'))('gpt-tokenizer/encoding/o200k_base');
const plain = { disallowedSpecial: new Set() };
const MODELS = { o200k: 'gpt-4o', claude: 'claude-sonnet-4', cl100k: 'gpt-4', llama: 'llama3.1:8b' };
/**
 * µs per 1,000 chars of one pass over the corpus, repeated for at least `ms` of this process's CPU
 * time: CPU time, not wall time, so other processes on a busy machine do not skew the ratio.
 */
function time(fn, ms) {
  let sink = 0;
  let reps = 0;
  const t0 = process.cpuUsage();
  let elapsed = 0;
  do {
    for (const t of texts) sink += fn(t);
    reps++;
    const { user, system } = process.cpuUsage(t0);
    elapsed = user + system;
  } while (elapsed < ms * 1000);
  if (sink < 0) console.log(sink);
  return elapsed / reps / (chars / 1000);
}
const bundle = await build({ entryPoints: [join(root, 'src/core/tokens.ts')], bundle: true, format: 'esm', write: false, logLevel: 'error' });
const bundled = Buffer.from(bundle.outputFiles[0].contents).toString('base64');
// eslint-disable-next-line no-unsanitized/method -- our own bundle of src/core/tokens.ts, built just above
const { estimateTokens } = await import(`data:text/javascript;base64,${bundled}`);
const best = { reference: Infinity };
for (const run of results) best[run.family] = Infinity;
for (let round = 0; round < 7; round++) {
  best.reference = Math.min(best.reference, time((t) => countTokens(t, plain), 300));
  for (const run of results) best[run.family] = Math.min(best[run.family], time((t) => estimateTokens(t, MODELS[run.family]), 150));
}

const worst = (obj, pick) => Object.entries(obj).reduce((a, b) => (pick(b[1], a[1]) ? b : a));
console.log('\n# Summary\n');
console.log(`Speed, µs of CPU per 1,000 chars, best of 7 interleaved rounds: gpt-tokenizer o200k_base countTokens ${best.reference.toFixed(1)}; the kit's own (wall-time) --ref-speed timing ${refUsPerKChar ?? '?'}.\n`);
console.log('| family | reference | worst category MAPE % | worst under % | overall MAPE % | µs CPU / 1k chars | × faster than gpt-tokenizer |');
console.log('| --- | --- | --- | --- | ---: | ---: | ---: |');
for (const { family, reference, summary: s } of results) {
  const [mc, mv] = worst(s.mapeByCategory, (x, y) => x > y);
  const [uc, uv] = worst(s.worstUnderByCategory, (x, y) => x < y);
  const us = best[family];
  console.log(`| ${family} | ${reference} | ${mv.toFixed(1)} (${mc}) | ${uv.toFixed(1)} (${uc}) | ${s.overallMape.toFixed(1)} | ${us.toFixed(2)} | ${(best.reference / us).toFixed(0)} |`);
}
