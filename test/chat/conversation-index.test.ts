// The index over the saved conversations: built lazily from the notes, a save applied as it is
// made, a note changed, renamed or deleted outside the plugin read again; (property) after any
// sequence of those it holds and answers exactly what an index built from scratch does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SavedConversation, serializeConversation } from '../../src/chat/conversation-format';
import { ConversationIndex } from '../../src/chat/conversation-index';
import { MemoryVault } from './helpers/memory-vault';

const conv = (id: string, title: string, texts: string[], created = Date.UTC(2024, 0, 1)): SavedConversation => ({
  id,
  title,
  model: 'm',
  created,
  updated: created,
  items: texts.map((content, i) => ({ kind: 'message', message: { id: `${id}-m${i}`, createdAt: created + i, role: i % 2 ? 'assistant' : 'user', content } })),
});

const folder = 'Chats';
const newIndex = (vault: MemoryVault): ConversationIndex => new ConversationIndex(vault, { folder: () => folder, pause: () => Promise.resolve() });

describe('ConversationIndex', () => {
  it('is built on the first search, names the conversation and message, and quotes it', async () => {
    const vault = new MemoryVault();
    vault.write(`${folder}/Pond.md`, serializeConversation(conv('p', 'Garden pond', ['Which pond liner?', 'An EPDM liner of 1 mm.'])));
    vault.write(`${folder}/Bread.md`, serializeConversation(conv('b', 'Sourdough', ['My bread is flat', 'Feed the starter.'])));
    vault.write(`${folder}/notes.md`, '# not a conversation');
    const index = newIndex(vault);
    expect(vault.reads).toBe(0);
    const hits = await index.search('pond liner', { limit: 5, asker: 'user' });
    expect(hits[0]).toMatchObject({ path: `${folder}/Pond.md`, conversationId: 'p', title: 'Garden pond', date: Date.UTC(2024, 0, 1) });
    expect(hits.map((h) => [h.messageId, h.text])).toContainEqual(['p-m1', 'An EPDM liner of 1 mm.']);
    // The question's own conversation is left out.
    expect(await index.search('pond liner', { limit: 5, asker: 'user', exclude: `${folder}/Pond.md` })).toEqual([]);
    expect(index.othersExist(`${folder}/Pond.md`)).toBe(true);
  });

  it('a message saved is found by the next search, without reading the note again', async () => {
    const vault = new MemoryVault();
    const c = conv('p', 'Pond', ['hello']);
    vault.write(`${folder}/Pond.md`, serializeConversation(c));
    const index = newIndex(vault);
    await index.search('anything', { limit: 5, asker: 'user' });
    const next = conv('p', 'Pond', ['hello', 'The zeppelin museum is in Friedrichshafen.']);
    vault.write(`${folder}/Pond.md`, serializeConversation(next), false);
    index.saved(`${folder}/Pond.md`, next);
    const reads = vault.reads;
    expect((await index.search('zeppelin', { limit: 5, asker: 'user' }))[0]).toMatchObject({ messageId: 'p-m1', index: 1 });
    expect(vault.reads).toBe(reads);
  });

  it('reads a note changed, renamed or deleted outside the plugin again on the next search', async () => {
    const vault = new MemoryVault();
    vault.write(`${folder}/A.md`, serializeConversation(conv('a', 'A', ['tulips in spring'])));
    const index = newIndex(vault);
    await index.search('tulips', { limit: 5, asker: 'user' });
    vault.write(`${folder}/A.md`, serializeConversation(conv('a', 'A', ['daffodils in spring'])));
    expect(await index.search('tulips', { limit: 5, asker: 'user' })).toEqual([]);
    const text = vault.files.get(`${folder}/A.md`) as string;
    vault.files.delete(`${folder}/A.md`);
    vault.files.set(`${folder}/B.md`, text);
    expect((await index.search('daffodils', { limit: 5, asker: 'user' }))[0]?.path).toBe(`${folder}/B.md`);
    vault.files.delete(`${folder}/B.md`);
    expect(await index.search('daffodils', { limit: 5, asker: 'user' })).toEqual([]);
    expect(index.othersExist(null)).toBe(false);
  });
});

type Op =
  | { kind: 'save'; note: number; texts: number[] }
  | { kind: 'edit'; note: number; texts: number[] }
  | { kind: 'junk'; note: number }
  | { kind: 'rename'; from: number; to: number }
  | { kind: 'delete'; note: number }
  | { kind: 'search' };

const WORDS = ['pond', 'liner', 'donkey', 'charity', 'bread', 'flour', 'I', 'you', 'what'];
const textOf = (seed: number): string => Array.from({ length: 1 + (seed % 5) }, (_, i) => WORDS[(seed + i * 7) % WORDS.length]).join(' ');
const texts = fc.array(fc.nat(1000), { maxLength: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('save' as const), note: fc.nat(4), texts }),
  fc.record({ kind: fc.constant('edit' as const), note: fc.nat(4), texts }),
  fc.record({ kind: fc.constant('junk' as const), note: fc.nat(4) }),
  fc.record({ kind: fc.constant('rename' as const), from: fc.nat(4), to: fc.nat(4) }),
  fc.record({ kind: fc.constant('delete' as const), note: fc.nat(4) }),
  fc.constant({ kind: 'search' as const }),
);

const QUERIES = ['pond liner', 'what did you say about the donkey', 'bread flour', 'I'];
/** Per query, each hit's score by note and message (compared within rounding: sums taken in
 * another order may differ in the last place). */
async function answers(index: ConversationIndex): Promise<Record<string, number>[]> {
  const out: Record<string, number>[] = [];
  for (const q of QUERIES) out.push(Object.fromEntries((await index.search(q, { limit: 100, asker: 'user', perConversation: 100 })).map((h) => [`${h.path}#${h.messageId}`, h.score])));
  return out;
}

describe('ConversationIndex property', () => {
  it('after any sequence of saves, outside edits, renames and deletes it equals an index built from scratch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 20 }), async (ops) => {
        const vault = new MemoryVault();
        const index = newIndex(vault);
        const path = (n: number): string => `${folder}/Note ${n}.md`;
        for (const o of ops) {
          if (o.kind === 'save') {
            // The plugin's save: the note written (its modify event fires), the index told.
            const c = conv(`c${o.note}`, `Note ${o.note}`, o.texts.map(textOf));
            vault.write(path(o.note), serializeConversation(c));
            index.saved(path(o.note), c);
          } else if (o.kind === 'edit') {
            vault.write(path(o.note), serializeConversation(conv(`c${o.note}`, `Edited ${o.note}`, o.texts.map(textOf))));
          } else if (o.kind === 'junk') {
            vault.write(path(o.note), 'not a conversation at all');
          } else if (o.kind === 'rename') {
            // A rename fires a rename event, no modify event; like the vault's, it refuses a path
            // that is taken.
            if (!vault.files.has(path(o.from)) || vault.files.has(path(o.to))) continue;
            vault.rename(path(o.from), path(o.to));
          } else if (o.kind === 'delete') {
            vault.remove(path(o.note));
          } else {
            await index.search('pond', { limit: 5, asker: 'user' });
          }
        }
        const got = await answers(index);
        const scratch = newIndex(vault);
        const want = await answers(scratch);
        got.forEach((g, i) => {
          expect(Object.keys(g).sort()).toEqual(Object.keys(want[i] ?? {}).sort());
          for (const [k, v] of Object.entries(g)) expect(Math.abs(v - (want[i]?.[k] ?? NaN))).toBeLessThan(0.0011);
        });
        expect(index.snapshot()).toEqual(scratch.snapshot());
      }),
      { numRuns: 300 },
    );
  });
});
