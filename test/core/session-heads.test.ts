import { describe, expect, it } from 'vitest';
import type { SourcedLine, ThreadLine } from '../../src/core/record';
import { namesIn, shownHead } from '../../src/core/session-heads';
import { FactLayout } from '../../src/core/thread-format';

const day = (d: number): number => Date.UTC(2024, 2, d, 18);
const thread = (id: number, d: number, text: string, topics?: string[]): ThreadLine => ({
  id,
  text,
  head: 'phrases',
  sources: [`m${id * 10}`],
  at: day(d),
  from: day(d),
  to: day(d),
  score: 1,
  round: 1,
  ...(topics ? { topics } : {}),
});
const fact = (text: string, id: string, t: number, over: Partial<SourcedLine> = {}): SourcedLine => ({ text, sources: [id], at: day(t), score: 1, round: 1, thread: t, ...over });

describe('session heads between two people', () => {
  it('names what a line says, not the speakers nor a month', () => {
    expect(namesIn('Nadia and I drove to Lake Tahoe in June with the Ortega family.', ['Nadia'])).toEqual(['Lake Tahoe', 'Ortega']);
    expect(namesIn('Then Hey, we saw the Museum of Modern Art.')).toEqual(['Museum of Modern Art']);
  });

  it('takes the topics its lines carry, best first, else their names; nothing under three words', () => {
    const t = thread(1, 3, '', ['pottery class', 'clay bowls', 'winter market']);
    expect(shownHead(t, ['I signed up for a pottery class and sold two clay bowls.'])).toBe('pottery class, clay bowls');
    // No topic carried: the names the line says.
    expect(shownHead(thread(1, 3, '', ['winter market']), ['We drove to Lake Tahoe with the Ortega family.'])).toBe('Lake Tahoe, Ortega');
    // A topic named only inside a longer word is not carried; two words are no head.
    expect(shownHead(thread(1, 3, '', ['clay bowls']), ['I love my clay bowlshop.'])).toBe('');
    expect(shownHead(thread(1, 3, '', []), ['We met Priya downtown.'])).toBe('');
  });

  it('heads a session of no phrases by its lines in the layout, and leaves a head in words as it is', () => {
    const threads = [thread(1, 3, ''), thread(2, 9, 'Harbor Festival, kayak rental'), thread(3, 12, '', ['night shift'])];
    const layout = new FactLayout({ threads, kind: 'talk', roleOf: (id) => (id === 'a1' ? 'assistant' : 'user'), speakers: { user: 'Mara', assistant: 'Jonas' } });
    const lines = layout.lines([
      fact('Yesterday I visited the Getty Center with Jonas and my aunt Rosa.', 'u1', 1),
      fact('I booked a spot for the sunrise paddle.', 'a1', 2),
      fact('My boss moved me to the night shift at the bakery.', 'u3', 3),
    ]);
    expect(lines).toContain('### 3 March 2024: Getty Center, Rosa');
    expect(lines).toContain('### 9 March 2024: Harbor Festival, kayak rental');
    // One topic of two words, no name: its date alone.
    expect(lines).toContain('### 12 March 2024:');
  });
});
