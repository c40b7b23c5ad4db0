// Builds the command line and the core library (`npm run build:cli`):
//   dist/cli.js          the `compact-chat` executable (src/cli/bin.ts bundled with the core, Node 20, ESM)
//   dist/core/index.js   the core as one ESM module (no dependencies, runs in Node and browsers)
//   dist/core/*.d.ts     its type declarations (tsc with tsconfig.lib.json)
// The plugin bundle (main.js, esbuild.config.mjs) is separate and unaffected.
import esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

await rm(join(dist, 'core'), { recursive: true, force: true });
await rm(join(dist, 'cli.js'), { force: true });

await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['src/cli/bin.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/cli.js',
  banner: { js: '#!/usr/bin/env node' },
  define: { COMPACT_CHAT_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
await chmod(join(dist, 'cli.js'), 0o755);

await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['src/core/index.ts'],
  bundle: true,
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  outfile: 'dist/core/index.js',
  logLevel: 'warning',
});

// Declarations: tsc keeps the sources' extensionless relative imports ('./messages'), which
// Node-style resolution (node16/nodenext) in a consumer cannot follow; add `.js`.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.lib.json')], { stdio: 'inherit', cwd: root });
for (const name of await readdir(join(dist, 'core'))) {
  if (!name.endsWith('.d.ts')) continue;
  const file = join(dist, 'core', name);
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(/(from\s+|import\()(['"])(\.\.?\/[^'"]+?)(?<!\.js)\2/g, '$1$2$3.js$2'));
}
console.log('built dist/cli.js and dist/core/ (index.js + .d.ts)');
