#!/usr/bin/env node
// Writes COMMON_HAN in src/core/tokens.ts (developer tool; never shipped, never in CI):
//
//   node --import tsx bench/common-han.mjs [--write]
//
// The ideographs (U+3400–U+4DBF, U+4E00–U+9FFF, U+F900–U+FAFF) that are a single token in
// cl100k_base or in the Claude tokenizer. Those vocabularies rank characters by how often their
// training text used them, so the set is the everyday core of Chinese and Japanese writing; every
// other ideograph is two or three byte tokens there, and the estimator prices it apart (HAN_RARE).
import { readFileSync, writeFileSync } from 'node:fs';
import { REFS } from './token-estimator-fit.mjs';

let common = '';
for (const [lo, hi] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xf900, 0xfaff]]) {
  for (let c = lo; c <= hi; c++) {
    const ch = String.fromCharCode(c);
    // NFKC would turn a compatibility ideograph into its unified twin; only the character itself counts.
    if (ch.normalize('NFKC') !== ch) continue;
    if (REFS.cl100k(ch) === 1 || REFS.claude(ch) === 1) common += ch;
  }
}
console.error(`${common.length} common ideographs`);
const lines = [];
for (let i = 0; i < common.length; i += 40) lines.push(`  '${common.slice(i, i + 40)}'`);
const decl = `const COMMON_HAN =\n${lines.join(' +\n')};`;
if (process.argv.includes('--write')) {
  const path = new URL('../src/core/tokens.ts', import.meta.url);
  const src = readFileSync(path, 'utf8');
  const from = src.indexOf('const COMMON_HAN =');
  const to = src.indexOf(';', from) + 1;
  writeFileSync(path, src.slice(0, from) + decl + src.slice(to));
} else console.log(decl);
