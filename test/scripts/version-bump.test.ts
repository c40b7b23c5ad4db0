// `npm version` runs version-bump.mjs: manifest.json and versions.json must move together, and the
// versions already recorded must stay.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve('version-bump.mjs');

describe('version-bump.mjs', () => {
  it('writes the new version to manifest.json and records its minAppVersion in versions.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bump-'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ id: 'compact-chat', version: '0.1.0', minAppVersion: '1.11.4' }));
    writeFileSync(join(dir, 'versions.json'), JSON.stringify({ '0.1.0': '1.11.4' }));
    execFileSync(process.execPath, [script], { cwd: dir, env: { ...process.env, npm_package_version: '0.2.0' } });
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { version: string; id: string };
    expect(manifest).toMatchObject({ id: 'compact-chat', version: '0.2.0' });
    expect(JSON.parse(readFileSync(join(dir, 'versions.json'), 'utf8'))).toEqual({ '0.1.0': '1.11.4', '0.2.0': '1.11.4' });
  });

  it('refuses to run outside npm version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bump-'));
    const env = { ...process.env };
    delete env.npm_package_version;
    expect(() => execFileSync(process.execPath, [script], { cwd: dir, env, stdio: 'pipe' })).toThrow(/npm version/);
  });

  it('the repository files agree: manifest, package and versions.json', () => {
    const manifest = JSON.parse(readFileSync('manifest.json', 'utf8')) as { version: string; minAppVersion: string };
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const versions = JSON.parse(readFileSync('versions.json', 'utf8')) as Record<string, string>;
    expect(manifest.version).toBe(pkg.version);
    expect(versions[manifest.version]).toBe(manifest.minAppVersion);
  });
});
