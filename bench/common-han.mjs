#!/usr/bin/env node
// Writes COMMON_HAN in src/core/tokens.ts (developer tool; never shipped, never in CI):
//
//   node --import tsx bench/common-han.mjs [--write]
//
// The ideographs (U+3400–U+4DBF, U+4E00–U+9FFF, U+F900–U+FAFF) that are a single token in
// cl100k_base or in the Claude tokenizer. Those vocabularies rank characters by how often their
// training text used them, so the set is the everyday core of Chinese and Japanese writing; every
// other ideograph is two or three byte tokens there, and the estimator prices it apart (HAN_RARE).
// Also LLAMA_BYTE_HAN, the common ones that Llama 2's smaller vocabulary spells in bytes (HAN_BYTES).
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
// LLAMA_BYTE_HAN: which of them Llama 2's vocabulary lacks (a common ideograph there is one token,
// with or without a space before it; the others are three byte tokens), one bit per character in
// COMMON_HAN's order, six to a base64 digit.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const bits = [...common].map((ch) => (REFS.llama(`a${ch}`) - REFS.llama('a') > 1 ? 1 : 0));
let mask = '';
for (let i = 0; i < bits.length; i += 6) mask += B64[bits.slice(i, i + 6).reduce((a, b, j) => a | (b << j), 0)];
console.error(`${bits.filter(Boolean).length} of them spelled in bytes by Llama 2`);
const maskDecl = `const LLAMA_BYTE_HAN = '${mask}';`;
if (process.argv.includes('--write')) {
  const path = new URL('../src/core/tokens.ts', import.meta.url);
  let src = readFileSync(path, 'utf8');
  for (const [name, text] of [['const COMMON_HAN =', decl], ['const LLAMA_BYTE_HAN =', maskDecl]]) {
    const from = src.indexOf(name);
    const to = src.indexOf(';', from) + 1;
    src = src.slice(0, from) + text + src.slice(to);
  }
  writeFileSync(path, src);
} else console.log(`${decl}\n${maskDecl}`);
