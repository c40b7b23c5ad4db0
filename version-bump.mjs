// `npm version <patch|minor|major|x.y.z>` runs this after bumping package.json: it writes the same
// version to manifest.json and records which Obsidian version it needs in versions.json, so the
// three never disagree. Tag and push afterwards (`git push --follow-tags`); the release workflow
// builds and attaches the files.
import { readFileSync, writeFileSync } from 'node:fs';

const targetVersion = process.env.npm_package_version;
if (!targetVersion) {
  console.error('Run through `npm version …`: npm_package_version is not set.');
  process.exit(1);
}

const manifest = JSON.parse(readFileSync('manifest.json', 'utf8'));
manifest.version = targetVersion;
writeFileSync('manifest.json', JSON.stringify(manifest, null, 2) + '\n');

const versions = JSON.parse(readFileSync('versions.json', 'utf8'));
versions[targetVersion] = manifest.minAppVersion;
writeFileSync('versions.json', JSON.stringify(versions, null, 2) + '\n');
