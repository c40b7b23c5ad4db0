// Module hook for `npm run bench`: `obsidian` (a types-only package) resolves to the test runtime
// (test/obsidian/, what vitest aliases it to), so the bench drives the plugin's real vault adapter
// (src/ui/obsidian-vault.ts) over the runtime's in-memory vault.
const runtime = new URL('../test/obsidian/index.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'obsidian') return next(runtime, context);
  return next(specifier, context);
}
