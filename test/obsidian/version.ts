// The API version this runtime reports, and the check plugins use to feature-detect.
/** The Obsidian API version these declarations follow (the `obsidian` types package). */
export const apiVersion = '1.13.1';

/** True when apiVersion is at least `version` (dotted numbers). */
export function requireApiVersion(version: string): boolean {
  const have = apiVersion.split('.').map(Number);
  const want = version.split('.').map(Number);
  for (let i = 0; i < Math.max(have.length, want.length); i++) {
    const diff = (have[i] ?? 0) - (want[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
}
