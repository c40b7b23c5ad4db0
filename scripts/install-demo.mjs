// Copies the release files into the bundled demo vault so it can be opened in Obsidian as-is.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const target = join('demo-vault', '.obsidian', 'plugins', 'compact-chat');
mkdirSync(target, { recursive: true });
for (const file of ['main.js', 'manifest.json', 'styles.css']) {
  if (!existsSync(file)) {
    console.error(`install-demo: ${file} is missing; run "npm run build" first.`);
    process.exit(1);
  }
  copyFileSync(file, join(target, file));
  console.log(`installed ${file} (${statSync(file).size} bytes) -> ${target}/`);
}
