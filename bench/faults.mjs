// `npm run bench:faults`: the time figures of the fault suite (issue #17), printed, never asserted
// (machines here are shared and noisy). NDJSON framing of one long line, cut in 64 KiB chunks as a
// socket delivers it: the current linear splitter against the old one (one growing buffer,
// re-sliced per chunk). Linear means 20 MB costs about 4× what 5 MB does, not 16×.
import { performance } from 'node:perf_hooks';
import { ndjsonLines } from '../src/providers/ndjson.ts';

/** The splitter before #17, kept here only as the baseline. */
async function* oldLines(chunks) {
  let buffer = '';
  for await (const chunk of chunks) {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield line;
      newline = buffer.indexOf('\n');
    }
  }
  const last = buffer.trim();
  if (last) yield last;
}

async function* chunked(text, size = 64 * 1024) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function time(split, megabytes) {
  const line = `{"message":{"content":"${'x'.repeat(megabytes * 1024 * 1024)}"}}\n`;
  const t0 = performance.now();
  let n = 0;
  for await (const l of split(chunked(line))) n += l.length;
  const ms = performance.now() - t0;
  if (n < megabytes * 1024 * 1024) throw new Error('lost data');
  return ms;
}

const cap = Number.MAX_SAFE_INTEGER;
const current = (chunks) => ndjsonLines(chunks, cap);
for (const [name, split] of [['linear (now)', current], ['old (before #17)', oldLines]]) {
  const small = await time(split, 5);
  const large = await time(split, 20);
  console.log(`NDJSON one line, ${name}: 5 MB ${small.toFixed(0)} ms, 20 MB ${large.toFixed(0)} ms, ratio ${(large / small).toFixed(1)}× (linear ≈ 4×)`);
}
