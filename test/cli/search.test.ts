// `compact-chat search` in-process: the k best messages per query, text and one JSON line per query.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli';

const dir = mkdtempSync(join(tmpdir(), 'compact-chat-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// An OpenAI messages array: the index reported is the array index, tool results included.
const conversation = [
  { role: 'system', content: 'You help with notes.' },
  { role: 'user', content: 'Which bakery should I try?' },
  { role: 'assistant', content: 'Try the Bluebird bakery on Cooper Lane.', tool_calls: [{ id: 't1', type: 'function', function: { name: 'read_note', arguments: '{"path":"Food.md"}' } }] },
  { role: 'tool', tool_call_id: 't1', content: 'Food.md: ramen at Tanuki, dumplings at Golden Gate.' },
  { role: 'user', content: 'And the weather tomorrow?' },
  { role: 'assistant', content: 'Sunny, light wind.' },
];
const file = join(dir, 'chat.json');
writeFileSync(file, JSON.stringify(conversation));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await main(args, { stdout, stderr, stdin: new PassThrough() });
  return { code, out, err };
}

describe('compact-chat search', () => {
  it('prints the best messages for one query, best first, tool results included', async () => {
    const r = await run(['search', file, 'ramen dumplings', '-k', '2', '-f', 'json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as { index: number; role: string; score: number; text: string }[];
    expect(rows[0]).toMatchObject({ index: 3, role: 'tool', text: conversation[3]?.content });
    expect(rows.length).toBeLessThanOrEqual(2);
    const text = await run(['search', file, 'Bluebird']);
    expect(text.out.split('\n')[1]).toMatch(/^1\. \[2\] assistant \(\d/);
  });

  it('--queries runs one search per line, one JSON line each, in order', async () => {
    const queries = join(dir, 'q.txt');
    writeFileSync(queries, 'weather tomorrow\n\nBluebird bakery\nzeppelin\n');
    const r = await run(['search', file, '--queries', queries, '-f', 'json']);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { index: number }[]);
    expect(lines).toHaveLength(3);
    expect(lines[0]?.[0]?.index).toBe(4);
    expect(lines[1]?.[0]?.index).toBe(2);
    expect(lines[2]).toEqual([]);
  });

  it('needs exactly one of QUERY and --queries', async () => {
    expect((await run(['search', file])).code).toBe(2);
    expect((await run(['search', file, 'a', '--queries', file])).code).toBe(2);
  });
});
