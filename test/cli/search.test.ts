// `compact-chat search` in-process: the k best messages per query, text and one JSON line per query.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('compact-chat search DIR', () => {
  // A folder of mixed formats: an OpenAI array, an Anthropic request, the plugin's own note, a
  // broken file, a hidden file and a subfolder (neither read).
  const folder = join(dir, 'folder');
  const setUp = (): void => {
    mkdirSync(join(folder, 'nested'), { recursive: true });
    writeFileSync(
      join(folder, 'pond.json'),
      JSON.stringify([
        { role: 'user', content: 'Which pond liner should I buy for the garden pond?' },
        { role: 'assistant', content: 'An EPDM pond liner of 1 mm lasts twenty years.' },
      ]),
    );
    writeFileSync(
      join(folder, 'charities.json'),
      JSON.stringify({ system: 'Be brief.', messages: [{ role: 'user', content: 'Suggest charities for animals' }, { role: 'assistant', content: [{ type: 'text', text: 'The Donkey Sanctuary and Cats Protection.' }] }] }),
    );
    writeFileSync(join(folder, 'garden.md'), readFileSync(new URL('../fixtures/plugin-conversation-v1.md', import.meta.url), 'utf8'));
    writeFileSync(join(folder, 'broken.json'), '[{"role": "user", "content": ');
    writeFileSync(join(folder, '.hidden.json'), JSON.stringify([{ role: 'user', content: 'pond liner secret' }]));
    writeFileSync(join(folder, 'nested', 'deep.json'), JSON.stringify([{ role: 'user', content: 'pond liner nested' }]));
  };

  it('ranks the messages of every file together, naming file and index; a broken file is one stderr line', async () => {
    setUp();
    const r = await run(['search', folder, 'pond liner', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/^compact-chat: skipping broken\.json: /)]);
    const rows = JSON.parse(r.out) as { file: string; index: number; role: string; score: number; text: string }[];
    // Conversations best first, each with its best messages; the hidden and nested files unread.
    expect(rows.slice(0, 2).map((x) => [x.file, x.index]).sort()).toEqual([['pond.json', 0], ['pond.json', 1]]);
    expect(rows.every((x) => ['pond.json', 'garden.md'].includes(x.file))).toBe(true);
    const charity = JSON.parse((await run(['search', folder, 'Donkey Sanctuary', '-f', 'json'])).out) as { file: string; index: number; text: string }[];
    // The Anthropic request's system prompt is read as message 0, as for one file.
    expect(charity[0]).toMatchObject({ file: 'charities.json', index: 2, text: 'The Donkey Sanctuary and Cats Protection.' });
    const garden = JSON.parse((await run(['search', folder, 'pesticides budget', '-f', 'json'])).out) as { file: string; index: number }[];
    expect(garden[0]?.file).toBe('garden.md');
  });

  it('--queries prints one array per query in order; text output names the file', async () => {
    setUp();
    const queries = join(dir, 'folder-q.txt');
    writeFileSync(queries, 'Donkey\npond liner\nzeppelin\n');
    const r = await run(['search', folder, '--queries', queries, '-k', '1', '-f', 'json']);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { file: string }[]);
    expect(lines.map((l) => l.map((x) => x.file))).toEqual([['charities.json'], ['pond.json'], []]);
    expect((await run(['search', folder, 'Donkey'])).out.split('\n')[1]).toMatch(/^1\. charities\.json \[2\] assistant \(/);
  });

  it('fails when no file of the folder is a conversation', async () => {
    const empty = join(dir, 'junk');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'notes.txt'), 'just text');
    const r = await run(['search', empty, 'anything']);
    expect(r.code).toBe(1);
  });
});

describe('compact-chat search DIR --date', () => {
  it('reads "two weeks ago" against the date given, from the dates the conversations open with', async () => {
    const dated = join(dir, 'dated');
    mkdirSync(dated, { recursive: true });
    writeFileSync(join(dated, 'a.json'), JSON.stringify([{ role: 'user', content: '(2024/04/01 (Mon) 10:00) I ran a 10k race with my club.' }]));
    writeFileSync(join(dated, 'b.json'), JSON.stringify([{ role: 'user', content: '(2024/05/16 (Thu) 10:00) I ran a 10k race with my club.' }]));
    const first = async (date: string): Promise<string | undefined> => (JSON.parse((await run(['search', dated, 'which race did I run two weeks ago?', '--date', date, '-f', 'json'])).out) as { file: string }[])[0]?.file;
    expect(await first('2024-05-30')).toBe('b.json');
    expect(await first('2024-04-15')).toBe('a.json');
    expect((await run(['search', dated, 'race', '--date', 'soon'])).code).toBe(2);
  });

  it('without --date, reads "two weeks ago" against the week after the newest conversation of the folder', async () => {
    const dated = join(dir, 'dated-newest');
    mkdirSync(dated, { recursive: true });
    // Same words in each; only the dates tell them apart. The newest is 2024-06-01, so "two weeks
    // ago" is from about 2024-05-18 to 05-25: c.json, not a.json (two months back) nor the newest.
    writeFileSync(join(dated, 'a.json'), JSON.stringify([{ role: 'user', content: '(2024/04/01 (Mon) 10:00) I ran a 10k race with my club.' }]));
    writeFileSync(join(dated, 'b.json'), JSON.stringify([{ role: 'user', content: '(2024/06/01 (Sat) 10:00) I ran a 10k race with my club.' }]));
    writeFileSync(join(dated, 'c.json'), JSON.stringify([{ role: 'user', content: '(2024/05/18 (Sat) 10:00) I ran a 10k race with my club.' }]));
    const r = await run(['search', dated, 'which race did I run two weeks ago?', '-f', 'json']);
    expect((JSON.parse(r.out) as { file: string }[])[0]?.file).toBe('c.json');
  });
});
