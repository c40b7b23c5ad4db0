// Checks the built plugin bundle (main.js) for what would stop it from loading on mobile:
// regex lookbehind (iOS and iPadOS before 16.4 cannot parse it; the lint rule keeps it out of our
// own code, this catches it coming in with a dependency). Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Each lookbehind group in `code` with a little context. A text scan: in a minified bundle
 * "(?<=" or "(?<!" outside a regex would be a string that means the same to a RegExp anyway. */
export function lookbehindIn(code) {
  const found = [];
  for (const m of code.matchAll(/\(\?<[=!]/g)) found.push(code.slice(Math.max(0, m.index - 40), m.index + 40));
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? 'main.js';
  const hits = lookbehindIn(readFileSync(file, 'utf8'));
  if (hits.length) {
    console.error(`${file}: ${hits.length} regex lookbehind(s), which iOS before 16.4 cannot parse:`);
    for (const h of hits) console.error(`  …${h}…`);
    process.exit(1);
  }
  console.log(`${file}: no regex lookbehind`);
}
