// `npm run bench` (imported by run.mjs): what one save of a conversation note costs at 10 and at
// 2,000 messages — time and bytes written — through the plugin's real store (src/chat/
// conversation-store.ts): over its Obsidian vault adapter (src/ui/obsidian-vault.ts) on the test
// runtime's in-memory vault (test/obsidian/), and over a Node file-system adapter in the OS's
// temporary folder (the I/O a desktop vault does: append and stat syscalls). Bytes are counted
// from what the store asks to be written.
import { mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

register(new URL('./obsidian-hooks.mjs', import.meta.url).href);
const { Vault } = await import('../test/obsidian/vault.ts');
const { MemoryAdapter } = await import('../test/obsidian/adapter.ts');
const { conversationVault } = await import('../src/ui/obsidian-vault.ts');
const { ConversationStore } = await import('../src/chat/conversation-store.ts');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const encoder = new TextEncoder();

/** The vault with every text the adapter is asked to write kept (write, append, create, process),
 * so the bytes are counted after the timed save, not during it. */
function countingVault() {
  const adapter = new MemoryAdapter();
  const written = [];
  for (const name of ['write', 'writeNew', 'append']) {
    const original = adapter[name].bind(adapter);
    adapter[name] = (path, data, options) => {
      written.push(data);
      return original(path, data, options);
    };
  }
  const process = adapter.process.bind(adapter);
  adapter.process = (path, fn, options) =>
    process(path, (data) => {
      const next = fn(data);
      written.push(next);
      return next;
    }, options);
  const vault = new Vault(adapter);
  const take = () => written.splice(0).reduce((n, text) => n + encoder.encode(text).length, 0);
  return { vault, take };
}

// About 500 bytes a message, so 2,000 messages make a note of about a megabyte (issue #18).
const prose = 'We looked at [[Projects/Garden redesign]] again: the beds go along the fence, the pond by the shed, and the budget stays under €900. ';
const message = (i) => ({
  kind: 'message',
  message: { id: `m${i}`, createdAt: 1_795_000_000_000 + i * 60_000, role: i % 2 ? 'assistant' : 'user', content: `${prose.repeat(1 + (i % 5))}(${i})` },
  ...(i % 2 ? { model: 'llama3.1:8b' } : {}),
});

/** The store's vault interface over Node's file system (Obsidian's desktop adapter is Node fs too),
 * with what it is asked to write kept for counting. */
function diskVault(root) {
  const written = [];
  const at = (path) => join(root, path);
  const read = async (path) => fs.readFile(at(path), 'utf8').catch(() => null);
  const vault = {
    normalizePath: (path) => path,
    read,
    listNotes: () => [],
    conversationNotes: () => [],
    ensureFolder: (folder) => fs.mkdir(at(folder), { recursive: true }).then(() => undefined),
    create: async (path, text) => {
      written.push(text);
      await fs.writeFile(at(path), text, { flag: 'wx' });
    },
    replace: async (path, text, expected) => {
      if ((await read(path)) !== expected) return false;
      written.push(text);
      await fs.writeFile(at(path), text);
      return true;
    },
    append: async (path, text) => {
      written.push(text);
      await fs.appendFile(at(path), text);
    },
    stat: async (path) => {
      const stat = await fs.stat(at(path)).catch(() => null);
      return stat?.isFile() ? { size: stat.size, mtime: stat.mtimeMs } : null;
    },
    writeHidden: async (path, text) => {
      written.push(text);
      await fs.writeFile(at(path), text);
    },
    removeHidden: (path) => fs.rm(at(path), { force: true }),
    rename: (path, next) => fs.rename(at(path), at(next)),
    trash: (path) => fs.rm(at(path)),
    onModify: () => undefined,
    onRename: () => undefined,
    onDelete: () => undefined,
  };
  const take = () => written.splice(0).reduce((n, text) => n + encoder.encode(text).length, 0);
  return { vault, take, peek: () => read('Compact Chat/Bench.md') };
}

function memoryVault() {
  const { vault, take } = countingVault();
  return { vault: conversationVault({ vault }, { registerEvent() {} }), take, peek: async () => vault.adapter.peek('Compact Chat/Bench.md') };
}

/**
 * A conversation of `size` messages in its note: written, then three messages added one save at a
 * time (untimed: the store's state is then that of a conversation in use), then collected (with
 * --expose-gc), so its objects are old, as a conversation open for a while has them. `save()` adds
 * a message and saves: that save's time and bytes written.
 */
async function conversationAt(size, makeVault) {
  const { vault, take, peek } = makeVault();
  const store = new ConversationStore(vault, { folder: () => 'Compact Chat', warn() {} });
  const items = Array.from({ length: size }, (_, i) => message(i));
  let updated = 1;
  // The store names notes by path: the first save creates it, the later ones are given its path.
  let path = null;
  // Fresh item objects around the same messages each time, as the session's toSaved gives them.
  const conversation = () => ({ id: 'bench', title: 'Bench', model: 'llama3.1:8b', created: 1_795_000_000_000, updated: updated++, items: items.map((item) => ({ ...item })) });
  const save = async () => {
    items.push(message(items.length));
    const next = conversation();
    take();
    const t0 = performance.now();
    const result = await store.save(next, path);
    const ms = performance.now() - t0;
    if (result.kind !== 'saved') throw new Error(`a save failed: ${JSON.stringify(result)}`);
    path = result.path;
    return { ms, bytes: take() };
  };
  for (let k = 0; k < 4; k++) await save();
  globalThis.gc?.();
  globalThis.gc?.();
  return { save, noteBytes: async () => encoder.encode((await peek()) ?? '').length };
}

async function measure(label, makeVault, rounds, savesPerRound) {
  console.log(`\n## Conversation note: one save after a new message (${label})`);
  const sizes = [10, 2000];
  const samples = sizes.map(() => ({ ms: [], bytes: [], noteBytes: 0 }));
  // Each round: a fresh conversation of each size, then a few saves of each, interleaved so the load
  // of a shared machine falls on both sizes alike. The first two rounds warm up.
  for (let r = 0; r < rounds + 2; r++) {
    const runs = [];
    for (const size of sizes) runs.push(await conversationAt(size, makeVault));
    for (let n = 0; n < savesPerRound; n++) {
      for (let k = 0; k < sizes.length; k++) {
        const { ms, bytes } = await runs[k].save();
        if (r < 2) continue;
        samples[k].ms.push(ms);
        samples[k].bytes.push(bytes);
      }
    }
    for (let k = 0; k < sizes.length; k++) samples[k].noteBytes = await runs[k].noteBytes();
  }
  const [small, large] = samples.map((s) => ({ ms: median(s.ms), bytes: median(s.bytes), noteBytes: s.noteBytes }));
  sizes.forEach((n, k) => {
    const r = k === 0 ? small : large;
    console.log(`at ${n.toLocaleString('en')} messages: ${r.ms.toFixed(3)} ms, ${r.bytes.toLocaleString('en')} bytes written (note ${r.noteBytes.toLocaleString('en')} bytes)`);
  });
  const note = globalThis.gc ? '' : '; run with --expose-gc for conversations whose objects are old';
  console.log(`ratio (2,000 / 10): time ${(large.ms / small.ms).toFixed(2)}, bytes ${(large.bytes / small.bytes).toFixed(2)}  (target ≤ 2; medians of ${rounds * savesPerRound} saves each${note})`);
}

export async function benchSave(rounds = 30, savesPerRound = 5) {
  await measure('store + Obsidian vault adapter, in-memory disk', memoryVault, rounds, savesPerRound);
  const root = mkdtempSync(join(tmpdir(), 'compact-chat-bench-'));
  let n = 0;
  try {
    await measure(`store over Node fs, ${tmpdir()}`, () => {
      const dir = join(root, String(n++));
      return diskVault(dir);
    }, rounds, savesPerRound);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
