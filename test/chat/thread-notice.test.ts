// The notice's thread line: the threads whose head the block carried, named with their state, at
// most three before "and N more", heads cut at a word boundary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carriedThreads, carriedThreadsText, shortHead, threadName } from '../../src/chat/thread-notice';
import type { CompactionRecord, ThreadLine } from '../../src/core/record';
import { threadHead } from '../../src/core/thread-format';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 2, 9, 0);

function thread(id: number, text: string, head: ThreadLine['head'], state?: ThreadLine['state']): ThreadLine {
  const from = T0 + id * DAY;
  return { id, text, head, from, to: from + 3_600_000, sources: [`m${id}`], at: from, score: 1, round: 1, ...(state ? { state } : {}) };
}

/** A record whose block wrote the heads of `carried` (and not of the others in `threads`). */
function record(threads: ThreadLine[], carried: ThreadLine[]): CompactionRecord {
  const block = ['<previous_context>', 'Key facts:', ...carried.flatMap((t) => [threadHead(t), `- A fact of thread ${t.id}.`]), '</previous_context>'].join('\n');
  return { threads, block } as unknown as CompactionRecord;
}

describe('the carried threads line', () => {
  it('names every carried thread with its state, oldest first', () => {
    const garden = thread(1, 'Can you help me plan the garden?', 'request', 'answered');
    const drip = thread(2, 'drip irrigation kits', 'phrases');
    const pond = thread(3, 'Where should the pond go?', 'request', 'open');
    expect(carriedThreadsText(record([garden, drip, pond], [garden, drip, pond]))).toBe(
      'Carried 3 threads: Can you help me plan the garden (answered), drip irrigation kits and Where should the pond go (open).',
    );
  });

  it('names three, then says how many more', () => {
    const threads = [1, 2, 3, 4, 5].map((i) => thread(i, `topic number ${i}`, 'phrases'));
    expect(carriedThreadsText(record(threads, threads))).toBe('Carried 5 threads: topic number 1, topic number 2, topic number 3 and 2 more.');
  });

  it('counts only the threads whose head the block wrote', () => {
    const threads = [1, 2, 3].map((i) => thread(i, `topic number ${i}`, 'phrases'));
    const rec = record(threads, [threads[0] as ThreadLine, threads[2] as ThreadLine]);
    expect(carriedThreads(rec).map((t) => t.id)).toEqual([1, 3]);
    expect(carriedThreadsText(rec)).toBe('Carried 2 threads: topic number 1 and topic number 3.');
  });

  it('says nothing when the block was not laid out by threads', () => {
    const threads = [thread(1, 'the garden', 'phrases')];
    expect(carriedThreadsText(record(threads, []))).toBe('');
    expect(carriedThreadsText({ block: '<previous_context>\n</previous_context>' } as unknown as CompactionRecord)).toBe('');
  });

  it('shortens a long head at a word boundary', () => {
    const t = thread(1, 'Could you compare the three drip irrigation kits for balcony pots with a tap timer?', 'request', 'open');
    expect(threadName(t)).toBe('Could you compare the three drip… (open)');
    expect(threadName(thread(2, '', 'phrases'))).toBe('a topic');
  });

  it('a short head is a prefix of the text, within the limit, cut between words', () => {
    const word = fc.stringMatching(/^[a-zé]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 20 }), fc.integer({ min: 8, max: 60 }), (words, max) => {
        const text = words.join(' ');
        const out = shortHead(text, max);
        expect([...out].length).toBeLessThanOrEqual(Math.max(max, 1));
        if (!out.endsWith('…')) {
          expect(out).toBe(text);
          return;
        }
        const kept = out.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        // Cut between two words unless the first word alone is longer than the room.
        if (kept.includes(' ') || [...(words[0] ?? '')].length < max - 1) expect(text[kept.length]).toBe(' ');
      }),
    );
  });
});
