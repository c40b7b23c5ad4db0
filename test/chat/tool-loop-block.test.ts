// @vitest-environment jsdom
// The plugin's own tool loop replayed end to end and compacted (issue 30): a scripted model on a
// loopback Ollama server searches and reads notes of a vault through the real vault tools, over
// several tool rounds in a 4k window, then writes to a note. The block sent after each compaction
// must let it carry on: the request that started the loop, the notes read, what each search
// returned (as the vault answered it), and the last action with what it found.
// (docs/examples/tool-loop-block.md quotes the blocks this replay makes.)
import { afterEach, describe, expect, it } from 'vitest';
import { VaultTools } from '../../src/chat/tools/vault-tools';
import type { ChatMessage } from '../../src/core/messages';
import { toolVault } from '../../src/ui/obsidian-vault';
import type { App } from '../obsidian/index';
import { createTestApp, destroyTestApp } from '../obsidian/testing';
import { ndjson, type Scripted } from '../providers/helpers/server';
import { harnessPool, ollamaReply, systemOf } from './helpers/harness';

const pool = harnessPool();
let app: App | undefined;
afterEach(async () => {
  await pool.closeAll();
  if (app) await destroyTestApp(app);
  app = undefined;
});

/** A model reply that says `content` and calls one tool (as Ollama streams it: the call whole). */
const step = (content: string, name: string, args: Record<string, unknown>): Scripted => ({
  chunks: ndjson(
    { model: 'llama3.1:8b', message: { role: 'assistant', content, tool_calls: [{ function: { name, arguments: args } }] }, done: false },
    { model: 'llama3.1:8b', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 10, eval_count: 5 },
  ),
  delayMs: 1,
});

/** A note's log: lines alike but for their number, the bulk that fills the window. */
const log = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `- ${topic} note ${i + 1}: watered, weeded and checked the soil moisture after the rain; nothing else to report this week.`).join('\n');

const FILES = {
  'Projects/Garden redesign.md': `# Garden redesign\n\n## Beds for this spring\nThe south bed gets tomatoes (Sungold and Roma) and basil between them. The north bed gets carrots (Nantes) and beans. Zucchini go in the corner by the compost.\n\n## Log\n${log('Garden', 30)}`,
  'Garden/Seed inventory.md': `# Seed inventory\n\n| seed | packets | sown by |\n| --- | --- | --- |\n| Sungold tomato | 2 | 2027 |\n| Roma tomato | 1 | 2026 |\n| Beans (Blauhilde) | 3 | 2027 |\n| Zucchini | 1 | 2028 |\n\nBasil ran out last summer. No carrot seeds left.\n\n${log('Seed shelf', 30)}`,
  'Daily/2026-03-02.md': `# 2026-03-02\nOrdered carrot seeds (Nantes) from Kings Seeds; they should arrive next week.\n\n${log('Day', 30)}`,
  'Shopping list.md': '# Shopping list\n- Compost, 2 bags\n',
  'Projects/Compost.md': `# Compost bins\nTurn the left bin every three weeks from April; the right bin rests until June.\n\n${log('Compost', 30)}`,
};

const SEEDS = 'Which seeds do I still need to order for the vegetable garden this spring? Check my garden notes and the seed inventory, then add the missing ones to my shopping list.';
const COMPOST = 'Good. Now find what I wrote about the compost bins and tell me when to turn them.';

/** The `<previous_context>` block of a system prompt ('' when there is none). */
const blockOf = (system: string): string => /<previous_context>[\s\S]*?<\/previous_context>/.exec(system)?.[0] ?? '';

/** The searches among `messages` with the note paths the vault answered each with (its result's
 * unindented lines), in order. */
function searchesIn(messages: readonly ChatMessage[]): { query: string; notes: string[] }[] {
  const out: { query: string; notes: string[] }[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      if (call.name !== 'search_vault') continue;
      const result = messages.find((r) => r.role === 'tool' && r.toolCallId === call.id);
      const notes = (result?.content ?? '').split('\n').filter((l) => l.trim() && !/^\s/.test(l));
      out.push({ query: (JSON.parse(call.arguments) as { query: string }).query, notes });
    }
  }
  return out;
}

describe("the plugin's tool loop, replayed and compacted", () => {
  it('carries the request that started the loop, the notes read, what each search returned and the last action, round after round', async () => {
    app = createTestApp({ files: FILES });
    const tools = new VaultTools(toolVault(app as never), () => Promise.resolve(true));
    // (The session's notes are the same vault's: restored notes are read as in the plugin.)
    const h = await pool.start({ contextWindowOverride: 4096, microCompaction: false }, FILES, { tools });
    h.server.on(
      'POST',
      '/api/chat',
      step('I will look for your garden plan first.', 'search_vault', { query: 'garden plan spring beds' }),
      step('', 'read_note', { path: 'Projects/Garden redesign.md' }),
      step('The plan needs tomatoes, basil, carrots, beans and zucchini. Now the seed inventory.', 'search_vault', { query: 'seed inventory' }),
      step('', 'read_note', { path: 'Garden/Seed inventory.md' }),
      step('Basil and carrot seeds are missing from the inventory. Let me check whether you already ordered any.', 'search_vault', { query: 'ordered seeds' }),
      step('', 'read_note', { path: 'Daily/2026-03-02.md' }),
      step('The carrot seeds are already ordered, so only basil is missing.', 'append_to_note', { path: 'Shopping list.md', content: '\n- Basil seeds (Genovese)\n' }),
      ollamaReply('You only need basil seeds: the carrots are already ordered (2 March). I added basil seeds to [[Shopping list]].'),
    );
    await h.session.send(SEEDS);
    expect(app.vault.getFileByPath('Shopping list.md')).toBeTruthy();

    // The loop outgrew the window: a round inside it removed the search and read rounds.
    const first = h.session.compactions[0];
    expect(first).toBeDefined();
    const removed = h.session.messages.filter((m) => first?.record.removedIds.includes(m.id));
    expect(removed.filter((m) => m.role === 'tool').length).toBeGreaterThanOrEqual(4);
    const sent = h.bodies().find((b) => blockOf(systemOf(b)) !== '');
    const block = blockOf(systemOf(sent));
    expect(block).toContain(`Goal: ${SEEDS}`);
    // Every note read and every search of the removed part, as the vault answered it.
    const reads = removed.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])).filter((c) => c.name === 'read_note');
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(block).toContain(`- Notes read: ${reads.map((c) => (JSON.parse(c.arguments) as { path: string }).path).join(', ')}`);
    const searches = searchesIn(removed);
    expect(searches.length).toBeGreaterThanOrEqual(2);
    for (const s of searches) {
      expect(s.notes.length).toBeGreaterThan(0);
      expect(block).toContain(`- Searched "${s.query}": ${s.notes.join(', ')}`);
    }
    // Where the loop stands: its last step (a read after the prose said with the search before
    // it), with the line of the note that answers, not the prose alone.
    const lastRead = reads.at(-1);
    const lastPath = (JSON.parse(lastRead?.arguments ?? '{}') as { path: string }).path;
    expect(block).toMatch(new RegExp(`Left off: .*\\n- Ran: read_note ${lastPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — read, \\d+ lines`));
    expect(block).toContain('Ordered carrot seeds (Nantes) from Kings Seeds');
    // The notes it read are attached again after the block, fresh from the vault.
    expect(systemOf(sent)).toContain('<restored_notes');

    // A second loop, then "Compact now": the block says the note written and the new request.
    h.server.on(
      'POST',
      '/api/chat',
      step('Let me find your compost notes.', 'search_vault', { query: 'compost bins' }),
      step('', 'read_note', { path: 'Projects/Compost.md' }),
      ollamaReply('Turn the left bin every three weeks from April; the right one rests until June.'),
    );
    await h.session.send(COMPOST);
    h.server.on('POST', '/api/chat', ollamaReply('You are welcome.'));
    await h.session.send('Thanks.');
    // (Compact now keeps the latest exchange: twice, to carry the compost loop too.)
    expect((await h.session.compactNow()).kind).toBe('compacted');
    expect((await h.session.compactNow()).kind).toBe('compacted');
    const [, second, third] = h.session.compactions.map((c) => c.record.block);
    // The second round cut the compost loop after its read: it stands there.
    expect(second).toContain(`Goal: ${SEEDS}`);
    expect(second).toContain('Latest request: Now find what I wrote about the compost bins and tell me when to turn them.');
    expect(second).toContain('- Changed: Shopping list.md — appended "- Basil seeds (Genovese)"');
    const compacted = (n: number): ChatMessage[] => h.session.messages.filter((m) => h.session.compactions.slice(0, n).some((c) => c.record.removedIds.includes(m.id)));
    const all = searchesIn(compacted(2));
    expect(all.map((s) => s.query)).toEqual(['garden plan spring beds', 'seed inventory', 'ordered seeds', 'compost bins']);
    // Each loop's searches under the request that started it (named by the task line that says it).
    const item = (s: { query: string; notes: string[] }): string => `  - "${s.query}": ${s.notes.join(', ')}`;
    // (The latest loop first: where the work is now.)
    expect(second).toContain(['- Searches for the latest request:', ...all.slice(3).map(item), '- Searches for the goal:', ...all.slice(0, 3).map(item)].join('\n'));
    expect(second).toMatch(/- Notes read: .*Projects\/Compost\.md/);
    // (The step it announced is the read under "Left off:", not a lead-in before it.)
    expect(second).toMatch(/Left off:\n- Ran: read_note Projects\/Compost\.md — read, \d+ lines/);
    expect(second).not.toContain('Let me find your compost notes');
    // (The first loop's answer is carried, not its stale steps.)
    expect(second).toContain('only need basil seeds');
    expect(second).not.toContain('Let me check whether you already ordered any.');
    // The third took the answer: the loop is done, what it did still said (chained, not lost).
    expect(third).toContain('Left off: Turn the left bin every three weeks from April');
    // (Each loop under its request, the latest first and whole; of the first loop what fits, from its
    // first search, never its heading alone.)
    expect(third).toContain(['- Searches for the latest request:', ...all.slice(3).map(item), '- Searches for the goal:', item(all[0] as { query: string; notes: string[] })].join('\n'));
    expect(third).toContain('- Changed: Shopping list.md — appended "- Basil seeds (Genovese)"');
  });
});
