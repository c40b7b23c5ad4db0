#!/usr/bin/env node
// Token-estimator benchmark: runs the shared kit (../shared/bench/tokens/bench.mjs) once per
// tokenizer family of src/core/tokens.ts against that family's reference tokenizer, prints the
// kit's tables, then one summary: per family the worst per-category MAPE, the worst under-count
// and the speed against gpt-tokenizer's exact count (o200k_base, timed by the kit's --ref-speed).
//
//   npm run bench:tokens [-- --bias | --detail]     (extra flags go to every kit run)
//
// Run from anywhere; the kit runs from the repo root so it finds the reference tokenizers in
// node_modules (devDependencies) and tsx for the TypeScript estimator.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const kit = resolve(root, '../shared/bench/tokens/bench.mjs');
if (!existsSync(kit)) {
  console.error(`error: ${kit} not found; the token benchmark kit lives in ../shared beside the repo.`);
  process.exit(1);
}
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

const worst = (obj, pick) => Object.entries(obj).reduce((a, b) => (pick(b[1], a[1]) ? b : a));
console.log('\n# Summary\n');
console.log(`gpt-tokenizer o200k_base countTokens: ${refUsPerKChar ?? '?'} µs per 1,000 chars (this machine).\n`);
console.log('| family | reference | worst category MAPE % | worst under % | overall MAPE % | µs / 1k chars | × faster than gpt-tokenizer |');
console.log('| --- | --- | --- | --- | ---: | ---: | ---: |');
for (const { family, reference, summary: s } of results) {
  const [mc, mv] = worst(s.mapeByCategory, (x, y) => x > y);
  const [uc, uv] = worst(s.worstUnderByCategory, (x, y) => x < y);
  const speed = refUsPerKChar && s.usPerKChar ? (refUsPerKChar / s.usPerKChar).toFixed(0) : '?';
  console.log(`| ${family} | ${reference} | ${mv.toFixed(1)} (${mc}) | ${uv.toFixed(1)} (${uc}) | ${s.overallMape.toFixed(1)} | ${s.usPerKChar} | ${speed} |`);
}
