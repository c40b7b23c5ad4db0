#!/usr/bin/env node
// Fits the per-family weight tables of src/core/tokens.ts, kept in src/core/token-weights.ts
// (developer tool; never shipped, never in CI).
//
//   node --import tsx bench/fit-token-weights.mjs [--write] [--verbose] [--family o200k,claude]
//        [--under 3] [--ridge 0.01] [--gen 0.05] [--smooth 0.02] [--drop slot,…] [--pin family:slot=value,…]
//
// The data and the fit live in bench/token-estimator-fit.mjs (the kit read in place, generated
// calibration text as the prior, held-out real text kept out of both). Here the weights are fitted
// on the whole kit and printed as the table for token-weights.ts; --write puts it there. How well the
// procedure generalises — per fold, holding out whole sources, and on other real text — is what
// `npm run bench:tokens` reports; the in-sample figures printed here are not that.
import { readFileSync, writeFileSync } from 'node:fs';
import { SLOT_NAMES } from '../src/core/tokens.ts';
import { DEFAULTS, est, FAMILY_REFS, familyFitter, generatedRows, kitRows, score, target } from './token-estimator-fit.mjs';

const args = process.argv.slice(2);
const opt = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const FAMILIES = opt('--family', 'o200k,cl100k,claude,llama,mistral').split(',');
const hyper = Object.fromEntries(Object.entries(DEFAULTS).map(([k, v]) => [k, typeof v === "number" ? Number(opt(`--${k}`, v)) : opt(`--${k}`, v)]));

const kit = kitRows();
const gen = generatedRows();
console.error(`${kit.length} kit samples, ${gen.length} generated texts, ${SLOT_NAMES.length} slots, ${JSON.stringify(hyper)}`);

const weights = {};
const tiesOf = {};
for (const fam of FAMILIES) {
  const { prior, fitOn, ties } = familyFitter(fam, gen, hyper);
  const w = fitOn(kit);
  weights[fam] = w;
  tiesOf[fam] = ties;
  for (const [label, ws] of [['prior', prior], ['fit', w]]) {
    const s = score(kit.map((r) => ({ cat: r.cat, ratio: est(r, ws) / target(r, fam) })));
    const worst = Object.entries(s).sort((a, b) => b[1].mae - a[1].mae)[0];
    const under = Math.min(...Object.values(s).map((c) => c.under));
    console.log(`${fam} (vs ${FAMILY_REFS[fam].join('/')}) ${label}, in sample: worst MAE ${worst[1].mae.toFixed(1)} (${worst[0]}), worst under ${under.toFixed(1)}`);
    if (args.includes('--verbose')) for (const [c, v] of Object.entries(s)) console.log(`  ${c.padEnd(14)} mae ${v.mae.toFixed(1).padStart(5)} under ${v.under.toFixed(1).padStart(6)} bias ${v.bias.toFixed(1).padStart(6)}`);
  }
  if (args.includes('--verbose')) console.log(`  ${[...w].map((v, i) => `${SLOT_NAMES[i]}=${v.toFixed(3)}`).join(' ')}`);
}

// The table for token-weights.ts: printed, and written in place of the old one with --write.
// Weights are written to 0.01, and a refit keeps the table's current weight of a slot while the
// fitted one is within one such step of it: otherwise a change elsewhere moves a weight that sits
// on a rounding boundary (o200k's latin0 fits 0.865 ± 0.001, and 0.86 → 0.87 moves English by
// 1 %) by rounding alone. New slots go at the end of SLOT_NAMES, so the current table's weights
// match the first slots by position.
const path = new URL('../src/core/token-weights.ts', import.meta.url);
const src = readFileSync(path, 'utf8');
const from = src.indexOf('export const WEIGHTS: Record<TokenizerFamily, readonly number[]> = {');
const to = src.indexOf('\n};\n', from) + 3;
const current = Object.fromEntries([...src.slice(from, to).matchAll(/(\w+): \[([^\]]*)\]/g)].map(([, fam, list]) => [fam, list.split(',').filter((v) => v.trim()).map(Number)]));
const fmt = (v) => (Math.round(v * 100) / 100).toString();
const lines = ['export const WEIGHTS: Record<TokenizerFamily, readonly number[]> = {'];
for (const [fam, fitted] of Object.entries(weights)) {
  const w = [...fitted].map((v, i) => (Math.abs(v - (current[fam]?.[i] ?? Infinity)) < 0.01 ? current[fam][i] : v));
  // A tied slot takes the weight written for its slot (a new one would otherwise be rounded apart
  // from a slot the rule above kept, and the family's estimates would move by rounding alone).
  for (const [i, j] of tiesOf[fam]) w[i] = w[j];
  lines.push(`  ${fam}: [`);
  let line = '   ';
  for (const v of w) {
    if (line.length + fmt(v).length > 100) {
      lines.push(line);
      line = '   ';
    }
    line += ` ${fmt(v)},`;
  }
  lines.push(line, '  ],');
}
lines.push('};');
const table = lines.join('\n');
console.log(`\n${table}`);
if (args.includes('--write')) {
  if (FAMILIES.length !== 5) throw new Error('--write needs all five families');
  writeFileSync(path, src.slice(0, from) + table + src.slice(to));
  console.error(`wrote the table into ${path.pathname}`);
}
