// End to end: builds dist/cli.js and dist/core/ once (scripts/build-cli.mjs), then runs the built
// CLI as a child process on the examples/, and imports the built library as another tool would.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const example = (name: string): string => join(root, 'examples', name);
let scratch = '';

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'pipe' });
  scratch = mkdtempSync(join(tmpdir(), 'compact-chat-cli-'));
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], input?: string): Run {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', input, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json<T = Record<string, unknown>>(r: Run): T {
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as T;
}

const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);

type Message = { id: string; role: string; createdAt: number; content: string; toolCalls?: { id: string; name: string }[]; toolCallId?: string };
type Result = { ok: boolean; block: string; conversation: { id: string; format: string }; record: { round: number; removedIds: string[]; keptIds: string[] }; removed: Message[]; kept: Message[]; stats: Record<string, number> };

const EXAMPLES = [
  { file: 'openai-messages.json', format: 'openai', pick: [] as string[] },
  { file: 'anthropic-messages.json', format: 'anthropic', pick: [] },
  { file: 'chatgpt-conversations.json', format: 'chatgpt', pick: ['--conversation', '1'] },
  { file: 'claude-conversations.json', format: 'claude', pick: ['--conversation', '1'] },
];

describe('compact-chat compact on every example format', () => {
  for (const { file, format, pick } of EXAMPLES) {
    it(`${format}: detected, compacted, text and json agree`, () => {
      const text = run(['compact', example(file), ...pick, '--keep-tokens', '0']);
      expect(text.stderr).toBe('');
      expect(text.status).toBe(0);
      expect(text.stdout).toMatch(/^<previous_context>\n[\s\S]+\n<\/previous_context>\n\nround 1: compacted \d+ of \d+ messages \(\d+ units?\), kept \d+ · ~[\d,]+ → [\d,]+ tokens · block [\d,]+ of 1,500 budget\n$/);

      const auto = json<Result>(run(['compact', example(file), ...pick, '--keep-tokens', '0', '--format', 'json']));
      const forced = json<Result>(run(['compact', example(file), ...pick, '--keep-tokens', '0', '--format', 'json', '--from', format]));
      expect(auto.conversation.format).toBe(format);
      expect(forced).toEqual(auto);
      expect(auto.ok).toBe(true);
      expect(text.stdout).toContain(auto.block);
      // Ids included: the record names exactly the messages removed and kept.
      expect(auto.record.removedIds).toEqual(auto.removed.map((m) => m.id));
      expect(auto.record.keptIds).toEqual(auto.kept.map((m) => m.id));
      expect(auto.kept.at(-1)?.role).not.toBe('tool');
      // Every tool result answers a call made before it.
      const all = [...auto.removed, ...auto.kept];
      const calls = new Set<string>();
      for (const m of all) {
        for (const c of m.toolCalls ?? []) calls.add(c.id);
        if (m.role === 'tool') expect(calls.has(m.toolCallId ?? '')).toBe(true);
      }
    });
  }

  it('keeps export times and leaves missing ones at 0', () => {
    const openai = json<Result>(run(['compact', example('openai-messages.json'), '--format', 'json']));
    expect([...openai.removed, ...openai.kept].every((m) => m.createdAt === 0)).toBe(true);
    const claude = json<Result>(run(['compact', example('claude-conversations.json'), '-c', '1', '--format', 'json']));
    expect(claude.removed[0]?.createdAt).toBe(Date.parse('2025-02-03T18:02:12.118402Z'));
    const chatgpt = json<Result>(run(['compact', example('chatgpt-conversations.json'), '-c', '1', '--keep-tokens', '0', '--format', 'json']));
    expect(chatgpt.removed[0]?.createdAt).toBeGreaterThan(Date.UTC(2025, 0, 1));
  });

  it('follows the current branch of a ChatGPT export', () => {
    const r = json<Result>(run(['compact', example('chatgpt-conversations.json'), '-c', '67a1c2e4', '--keep-tokens', '0', '--format', 'json']));
    const text = [...r.removed, ...r.kept].map((m) => m.content).join('\n');
    expect(text).toContain('Advanced Tables formulas then');
    expect(text).not.toContain("Let's go with Dataview then");
    expect([...r.removed, ...r.kept].some((m) => m.toolCalls?.[0]?.name === 'python')).toBe(true);
  });

  it('--conversation all compacts every conversation (empty ones skipped, noted on stderr)', () => {
    const r = run(['compact', example('claude-conversations.json'), '--conversation', 'all', '--format', 'json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/skipping 1 empty conversation/);
    const results = JSON.parse(r.stdout) as Result[];
    expect(results.map((x) => x.conversation.id)).toEqual(['1f6b9e2a-5c3d-4e7f-9a1b-2c3d4e5f6a7b', '2a7c0f3b-6d4e-4f80-8b2c-3d4e5f6a7b8c']);
    expect(results[1]).toMatchObject({ ok: false, reason: 'nothing-to-compact' });
  });

  it('several conversations without --conversation: exit 2 with the list', () => {
    const r = run(['compact', example('chatgpt-conversations.json')]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/holds 2 conversations; choose one with --conversation ID\|INDEX\|all/);
    expect(r.stderr).toContain('Translate a haiku into English');
  });

  it('options reach the compactor: budget, keep-exchanges, focus; markdown output', () => {
    const small = json<Result>(run(['compact', example('openai-messages.json'), '--budget', '200', '--keep-exchanges', '1', '--keep-tokens', '0', '--format', 'json']));
    expect(small.stats.blockTokens).toBeLessThanOrEqual(200);
    expect(small.kept.filter((m) => m.role === 'user')).toHaveLength(1);
    const focused = json<{ record: { focus?: string } }>(run(['compact', example('openai-messages.json'), '--focus', 'APA 7 citations', '--format', 'json']));
    expect(focused.record.focus).toBe('APA 7 citations');
    const md = run(['compact', example('anthropic-messages.json'), '--format', 'markdown']);
    expect(md.status).toBe(0);
    expect(md.stdout).toMatch(/^## Compaction of “anthropic-messages”/);
    expect(md.stdout).toContain('### The block sent');
    expect(md.stdout).toMatch(/```text\n<previous_context>/);
  });

  it('reads stdin with -', () => {
    const r = run(['compact', '-', '--keep-tokens', '0', '--format', 'json'], JSON.stringify([
      { role: 'user', content: 'Plan the garden in [[Garden/Plan]]: beds along the south fence, a path of gravel, water from the rain barrel.' },
      { role: 'assistant', content: 'Sure. Three beds along the fence, the path between them, and the barrel at the corner.' },
      { role: 'user', content: 'Add tomatoes.' },
      { role: 'assistant', content: 'Added.' },
      { role: 'user', content: 'And beans?' },
    ]));
    const result = json<Result>(r);
    expect(result.conversation).toMatchObject({ id: 'stdin', format: 'openai' });
    expect(result.block).toContain('[[Garden/Plan]]');
  });
});

describe('compact-chat compact --rounds', () => {
  it('replays automatic compaction and prints every round', () => {
    const r = run(['compact', example('openai-messages.json'), '--rounds', '--window', '4096']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const headers = r.stdout.split('\n').filter((l) => l.startsWith('── round'));
    // One compaction now frees enough room for the rest of this short conversation.
    expect(headers.length).toBeGreaterThanOrEqual(1);
    expect(headers[0]).toMatch(/^── round 1 · before message \d+ of 25 · trigger tokens · ~[\d,]+ → [\d,]+ tokens/);
    expect(r.stdout.match(/<previous_context>/g)?.length).toBe(headers.length);
    expect(r.stdout).toMatch(/\d+ rounds? over 25 messages \(window 4,096, compaction point 3,072\); the prompt ends at ~[\d,]+ tokens\n/);
    expect(r.stdout).toMatch(/Used instead: --reply-reserve 2,048 → 1,024; --budget 1,500 → 768; --keep-tokens 2,000 → 384\.\n$/);

    type Event = { kind: string; beforeMessage: number; promptBefore: number; promptAfter: number; record: { round: number; removedIds: string[] }; block: string };
    const events = json<Event[]>(run(['compact', example('openai-messages.json'), '--rounds', '--window', '4096', '--format', 'json']));
    const rounds = events.filter((e) => e.kind === 'compaction');
    expect(rounds.map((e) => e.record.round)).toEqual(rounds.map((_, i) => i + 1));
    for (const e of rounds) expect(e.promptAfter).toBeLessThan(e.promptBefore);
    // Chaining: no message is removed twice.
    const removed = rounds.flatMap((e) => e.record.removedIds);
    expect(new Set(removed).size).toBe(removed.length);
  });

  it('reports when the conversation never reaches the compaction point', () => {
    const r = run(['compact', example('anthropic-messages.json'), '--rounds']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^no compaction over 14 messages: the prompt peaks at ~[\d,]+ tokens \(window 200,000 \(claude-sonnet-4-5\), compaction point 170,000\)\n$/);
  });
});

describe('compact-chat stats', () => {
  it('prints tokens per role and the compaction point for the window', () => {
    const r = run(['stats', example('openai-messages.json'), '--window', '4096']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}user +8 +[\d,]+$/m);
    expect(r.stdout).toMatch(/^ {2}tool +5 +[\d,]+$/m);
    expect(r.stdout).toContain('window 4,096; compaction point 3,072 (85 % of the window, 1,024 reserved for the reply)');
    expect(r.stdout).toMatch(/the point is crossed at message \d+ of 25/);
    const s = json<{ byRole: Record<string, { messages: number; tokens: number }>; compactionPoint: number; window: number }>(run(['stats', example('openai-messages.json'), '--format', 'json', '--model', 'gpt-4o']));
    expect(s.window).toBe(128_000);
    expect(s.byRole.system?.messages).toBe(1);
  });

  it('lists the conversations of a multi-conversation export', () => {
    const r = run(['stats', example('claude-conversations.json')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^3 conversations/);
    expect(r.stdout).toContain('Zettelkasten vs PARA');
  });
});

describe('bad input: one clear line on stderr, non-zero exit, no stack trace', () => {
  const write = (name: string, text: string): string => {
    const file = join(scratch, name);
    writeFileSync(file, text);
    return file;
  };

  it('unreadable file', () => {
    const r = run(['compact', join(scratch, 'missing.json')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^compact-chat: cannot read .*missing\.json: no such file\n$/);
  });

  it('invalid JSON, with line and column', () => {
    const r = run(['compact', write('broken.json', '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant" "content": "x"}\n]')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not valid JSON: .*\(line 3, column 24\)\n$/);
    noStack(r.stderr);
  });

  it('unknown format names the known ones', () => {
    const r = run(['compact', write('other.json', '{"hello": "world"}')]);
    expect(r.status).toBe(1);
    for (const id of ['openai', 'chatgpt', 'anthropic', 'claude', 'plugin']) expect(r.stderr).toMatch(new RegExp(`^ +${id} `, 'm'));
    const text = run(['compact', write('notes.txt', 'just some text')]);
    expect(text.status).toBe(1);
    expect(text.stderr).toMatch(/unknown format \(neither JSON nor a saved conversation note\)/);
  });

  it('empty conversation and empty file', () => {
    const r = run(['compact', example('claude-conversations.json'), '-c', '3']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/conversation 3b8d1a4c-7e5f-4091-9c3d-4e5f6a7b8c9d is empty/);
    expect(run(['compact', write('empty.json', '[]')]).stderr).toMatch(/holds no conversation|unknown format/);
    expect(run(['compact', write('blank.json', '  \n')]).stderr).toMatch(/is empty: no conversation to read/);
  });

  it('a message the format does not allow names its path', () => {
    const r = run(['compact', write('role.json', JSON.stringify([{ role: 'user', content: 'a' }, { role: 'robot', content: 'b' }]))]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/\(read as openai\): \$\[1\]\.role: unknown role "robot"/);
    noStack(r.stderr);
  });

  it('reads the plugin\'s saved conversation note, detected from its front matter or with --from plugin', () => {
    const auto = run(['compact', example('plugin-conversation.md'), '--keep-tokens', '0', '--format', 'json']);
    expect(auto.status).toBe(0);
    const result = JSON.parse(auto.stdout) as { record: { removedIds: string[]; filesRead: { path: string }[]; filesModified: { path: string }[] } }[] | { record: { removedIds: string[] } };
    const first = Array.isArray(result) ? result[0] : result;
    expect(first?.record.removedIds[0]).toBe('m1');
    const text = run(['compact', example('plugin-conversation.md'), '--from', 'plugin', '--keep-tokens', '0']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('<previous_context>');
    expect(text.stdout).toContain('Projects/Garden redesign.md');
    const broken = run(['compact', write('chat.md', '---\nid: "x"\ntitle: "T"\n---\n\n### Robot · 2026-11-20 08:30\nhello\n')]);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/\(read as plugin\): line \d+: /);
    noStack(broken.stderr);
  });

  it('wrong usage exits 2', () => {
    expect(run(['compact']).status).toBe(2);
    expect(run(['frobnicate', 'x']).status).toBe(2);
    const r = run(['compact', example('openai-messages.json'), '--budget', 'lots']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--budget must be a whole number/);
    expect(run(['compact', example('openai-messages.json'), '--colour']).stderr).toMatch(/Unknown option '--colour'/);
    expect(run(['--help']).stdout).toMatch(/^compact-chat 0\.\d+\.\d+ /);
  });

  it('--debug adds the stack trace', () => {
    const r = run(['compact', write('broken2.json', '{"a": }'), '--debug']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/\n\s+at /);
  });

  it('a progress line on stderr for big files', () => {
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(400);
    const messages = Array.from({ length: 240 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i}: ${filler}` }));
    const r = run(['stats', write('big.json', JSON.stringify(messages)), '--format', 'json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^reading .*big\.json: [\d.]+ \/ [\d.]+ MB/);
    expect(JSON.parse(r.stdout)).toMatchObject({ messages: 240 });
  });
});

describe('the core as a library', () => {
  const script = `
    import { compact, parseMessage, estimateTokens, contextWindowFor } from 'compact-chat';
    const messages = [
      ['user', 'Plan the trip to Kyoto in [[Travel/Kyoto]]. Never book hostels.'],
      ['assistant', 'Noted. I suggest three days.'],
      ['user', 'We decided on the ryokan near Gion.'],
      ['assistant', 'Good choice.'],
      ['user', 'Now the day trips?'],
    ].map(([role, content], i) => parseMessage({ id: 'm' + i, createdAt: 0, role, content }));
    const result = compact(messages, { budgetTokens: 300, keepExchanges: 1 });
    console.log(JSON.stringify({ ok: result.ok, block: result.ok ? result.block : '', kept: result.ok ? result.kept.map((m) => m.id) : [], window: contextWindowFor('gpt-4o'), tokens: estimateTokens('hello world') }));
  `;

  it("imports 'compact-chat' by name through package.json exports and compacts", () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const r = JSON.parse(out) as { ok: boolean; block: string; kept: string[]; window: number };
    expect(r.ok).toBe(true);
    expect(r.block).toContain('<previous_context>');
    expect(r.block).toContain('[[Travel/Kyoto]]');
    expect(r.kept).toEqual(['m4']);
    expect(r.window).toBe(128_000);
  });

  it('dist/core/index.js imports directly too', async () => {
    // eslint-disable-next-line no-unsanitized/method -- a file URL of the library this test just built
    const core = (await import(pathToFileURL(join(root, 'dist', 'core', 'index.js')).href)) as typeof import('../../src/core');
    const result = core.compact(
      [
        { id: 'a', createdAt: 0, role: 'user', content: 'First request about [[Notes/A]].' },
        { id: 'b', createdAt: 0, role: 'assistant', content: 'Answer.' },
        { id: 'c', createdAt: 0, role: 'user', content: 'Second request.' },
      ],
      { budgetTokens: 200, keepExchanges: 1 },
    );
    expect(result.ok && result.removed.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('the declarations type-check for a NodeNext consumer', () => {
    const dir = join(root, 'dist', 'consumer-check');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { compact, type ChatMessage, type CompactionResult } from 'compact-chat';\nconst m: ChatMessage[] = [{ id: 'a', createdAt: 0, role: 'user', content: 'x' }];\nconst r: CompactionResult = compact(m, { budgetTokens: 100 });\nexport const ok: boolean = r.ok;\n`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [], skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      throw new Error(`tsc failed: ${(error as { stdout?: string }).stdout ?? String(error)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
