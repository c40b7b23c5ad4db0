// Fault suite, CLI input size: a 200 MB export under a 1 GB heap (`--max-old-space-size=1024`) is
// refused up front with one line naming the limit and the way round, exit 1, never a V8 trace;
// stdin over the limit is cut off the same way. Runs the CLI source through tsx as a child process.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'compact-chat-big-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(heapMb: number, args: string[], input?: Buffer): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--import', 'tsx', join(root, 'src', 'cli', 'bin.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    input,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

function expectCleanRefusal(r: { status: number | null; stderr: string }): void {
  expect(r.status).toBe(1);
  // At most a progress line ("reading stdin: 4.0 MB …") before the one line of the refusal.
  const lines = r.stderr.trim().split('\n');
  expect(lines.slice(0, -1).every((l) => l.startsWith('reading '))).toBe(true);
  expect(lines[lines.length - 1]).toMatch(/over the [\d.]+ MB this run can read with Node's [\d.]+ MB memory limit; raise it with NODE_OPTIONS=--max-old-space-size=\d+/);
  expect(r.stderr).not.toMatch(/FATAL ERROR|heap out of memory|\n\s+at /);
}

describe('fault suite: big CLI inputs', () => {
  it('a 200 MB export under a 1 GB heap is refused up front, in one line, with or without --rounds', () => {
    const file = join(scratch, 'export-200mb.json');
    // Sparse: the size is what is checked before anything is read.
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 200 * 1024 * 1024);
    closeSync(fd);
    for (const args of [['stats', file], ['compact', file, '--rounds']]) {
      const r = cli(1024, args);
      expectCleanRefusal(r);
      expect(r.stderr).toContain('export-200mb.json is 200.0 MB');
    }
  }, 120_000);

  it('stdin over the limit is cut off as soon as it passes it', () => {
    const r = cli(64, ['stats', '-'], Buffer.alloc(24 * 1024 * 1024, 0x20));
    expectCleanRefusal(r);
    expect(r.stderr).toContain('stdin is over');
  }, 120_000);
});
