// Finds import cycles among a folder's TypeScript files, type-only imports counted (a cycle makes
// the order of module initialisation matter and hides the layers, whether or not the compiler
// erases the import). `node scripts/import-cycles.mjs [folder]` (default src) exits 1 on a cycle;
// test/lint/import-cycles.test.ts runs it over src/ and over a sample cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every relative module a file names: import and export … from (type-only included), import(). */
function specifiers(source) {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
}

/** The file a relative specifier names among `files`, as a bundler resolves it (`./x`, `./x.js`,
 * `./x/index`), or undefined for one outside them. */
function resolve(from, spec, files) {
  const base = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '');
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((p) => files.has(p));
}

/** The import cycles among `sources` (path → text, paths with '/'): each strongly connected group
 * of two or more files (or one importing itself), sorted, one group per cycle found. */
export function importCycles(sources) {
  const files = new Set(Object.keys(sources));
  const edges = new Map();
  for (const f of files) edges.set(f, [...new Set(specifiers(sources[f]).map((s) => resolve(f, s, files)).filter(Boolean))]);
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      const out = edges.get(v);
      if (i < out.length) {
        top[1]++;
        const w = out[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) !== index.get(v)) continue;
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || out.includes(v)) groups.push(group.sort());
    }
  }
  return groups;
}

/** The .ts files under `dir` (path relative to it with '/' → text). */
export function readSources(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out[relative(dir, p).split(sep).join('/')] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'src';
  const cycles = importCycles(readSources(dir));
  for (const c of cycles) console.error(`import cycle in ${dir}: ${c.join(' ↔ ')}`);
  if (cycles.length) process.exit(1);
  console.log(`${dir}: no import cycles`);
}
