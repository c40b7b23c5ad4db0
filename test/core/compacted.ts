// A compaction that must have succeeded, for the tests that read its block and record (shared so
// each test file does not write its own).
import type { compact } from '../../src/core/compact';

export type Compacted = Extract<ReturnType<typeof compact>, { ok: true }>;

/** `r` when the compaction succeeded; else throws its message, failing the test. */
export function ok(r: ReturnType<typeof compact>): Compacted {
  if (!r.ok) throw new Error(r.message);
  return r;
}
