// Adapter between the retention kit (../shared/bench/retention, read in place) and the core's
// `compact`. The kit's messages have no ids or dates: ids are assigned per round (so a chain never
// confuses this round's m3 with the last one's), and times are left unknown (0).
//
// The core is bundled with esbuild on first use, so this works right after `npm ci` with plain
// `node` as well as under `node --import tsx`.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let core;
export async function loadCore() {
  if (core) return core;
  const dir = mkdtempSync(join(tmpdir(), 'compact-core-'));
  const outfile = join(dir, 'core.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../src/core/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile,
    logLevel: 'error',
  });
  // eslint-disable-next-line no-unsanitized/method -- the URL is our own esbuild output, just written
  core = await import(pathToFileURL(outfile).href);
  rmSync(dir, { recursive: true, force: true });
  return core;
}

/** An o200k-family model id, so the core's estimator uses the weights the kit scores with. */
const MODEL = 'gpt-4o';

/** The kit's messages as the core's ChatMessages (ids `r<round>-m<i>`, unknown times). */
export function toChatMessages(messages, round) {
  return messages.map((m, i) => {
    const base = { id: `r${round}-m${i}`, createdAt: 0 };
    if (m.role === 'tool') return { ...base, role: 'tool', toolCallId: m.toolCallId ?? `orphan-${i}`, content: m.content ?? '' };
    if (m.role === 'assistant') {
      const toolCalls = (m.toolCalls ?? []).map((c) => ({
        id: c.id,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
      }));
      return { ...base, role: 'assistant', content: m.content ?? '', ...(toolCalls.length ? { toolCalls } : {}) };
    }
    return { ...base, role: m.role === 'system' ? 'system' : 'user', content: m.content ?? '' };
  });
}

export async function compact(messages, { budgetTokens, keepMessages, round, previous }) {
  const { compact: compactCore, isCompactionRecord } = await loadCore();
  const chat = toChatMessages(messages, round ?? 1);
  const cut = Math.max(0, messages.length - keepMessages);
  const result = compactCore(chat, {
    budgetTokens,
    cut,
    model: MODEL,
    previous: isCompactionRecord(previous) ? previous : null,
    trigger: 'tokens',
  });
  const kept = messages.slice(cut);
  if (!result.ok) return { previousContext: '', kept, ...(isCompactionRecord(previous) ? { state: previous } : {}) };
  return { previousContext: result.block, kept, state: result.record };
}
