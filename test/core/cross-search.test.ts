// The index over many conversations: ranking by conversation with its best messages quoted, one
// update per message, and (property) any sequence of saves, renames, removals and outside edits
// leaves it answering exactly as one built from scratch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrossIndex, type IndexedMessage, conversationDate, subjectOf } from '../../src/core/cross-search';
import { queryTimeHint, queryTimeSpan, timeFit, timePhrase } from '../../src/core/query-time';

const u = (text: string): IndexedMessage => ({ text, role: 'user' });
const a = (text: string): IndexedMessage => ({ text, role: 'assistant' });
const DAY = 86_400_000;

describe('CrossIndex', () => {
  it('ranks the conversation that holds the answer first and quotes its messages verbatim', () => {
    const index = new CrossIndex<string>();
    index.sync('pond.md', [u('Which pond liner should I buy?'), a('An EPDM liner of 1 mm, it lasts twenty years.'), u('Thanks, ordered.')], 0);
    index.sync('charity.md', [u('Suggest charities for animals'), a('The Donkey Sanctuary and Cats Protection.')], 0);
    index.sync('bread.md', [u('My sourdough is flat'), a('Feed the starter twice a day.')], 0);
    const hits = index.search('which charities did you suggest?', { limit: 10, asker: 'user' });
    expect(hits[0]).toMatchObject({ conversation: 'charity.md' });
    expect(hits.filter((h) => h.conversation === 'charity.md').map((h) => h.text)).toContain('The Donkey Sanctuary and Cats Protection.');
    const liner = index.search('what did we decide about the pond liner', { limit: 10, asker: 'user' });
    expect(liner[0]?.conversation).toBe('pond.md');
    expect(liner.every((h) => h.conversation === 'pond.md')).toBe(true);
    expect(liner.map((h) => h.index)).toContain(1);
  });

  it('finds a message saved since the last query; one append is one update', () => {
    const index = new CrossIndex<string>();
    index.sync('a.md', [u('hello there')], 0);
    expect(index.search('zeppelin', { limit: 5, asker: 'user' })).toEqual([]);
    index.append('a.md', a('The zeppelin museum is in Friedrichshafen.'));
    expect(index.search('zeppelin', { limit: 5, asker: 'user' })[0]).toMatchObject({ conversation: 'a.md', index: 1, role: 'assistant' });
    expect(index.messages).toBe(2);
  });

  it('leaves out the conversation the question is asked in, and caps the messages per conversation', () => {
    const index = new CrossIndex<string>();
    index.sync('here.md', [u('tomato seeds'), a('tomato seeds need warmth')], 0);
    index.sync('there.md', [u('tomato blight'), a('tomato blight spreads in rain'), u('tomato again'), a('tomato more')], 0);
    const hits = index.search('tomato', { limit: 10, asker: 'user', exclude: 'here.md', perConversation: 2 });
    expect(hits.map((h) => h.conversation)).toEqual(['there.md', 'there.md']);
  });

  it('favours the conversation held when the question says, given when it is asked', () => {
    const index = new CrossIndex<string>();
    const now = Date.UTC(2024, 5, 30);
    index.sync('old.md', [u('I ran a 10k race with my club')], now - 60 * DAY);
    index.sync('recent.md', [u('I ran a 10k race with my club')], now - 14 * DAY);
    expect(index.search('which race did I run two weeks ago?', { limit: 5, asker: 'user', now })[0]?.conversation).toBe('recent.md');
    expect(index.search('which race did I run two months ago?', { limit: 5, asker: 'user', now })[0]?.conversation).toBe('old.md');
    // Without a date the tie goes to the earlier-added conversation.
    expect(index.search('which race did I run two weeks ago?', { limit: 5, asker: 'user' })[0]?.conversation).toBe('old.md');
  });

  it('counts a word the question repeats once ("… a sports event. What was the event?")', () => {
    const index = new CrossIndex<string>();
    // party.md says "event" often; match.md holds the rarer words the question names once each.
    index.sync('party.md', [u('I am planning a social event for the club.'), a('For your event, book a hall; an event needs a host and an event page.'), u('I will post the event tonight.')], 0);
    index.sync('match.md', [u('I will participate in the charity soccer tournament today.'), a('Drink sports drinks and stretch before you play.')], 0);
    for (const topic of ['garden', 'bread', 'car', 'tax']) index.sync(`${topic}.md`, [u(`A question about my ${topic}.`), a(`An answer about your ${topic}.`)], 0);
    const hits = index.search('I mentioned participating in a sports event. What was the event?', { limit: 5, asker: 'user' });
    expect(hits[0]?.conversation).toBe('match.md');
  });

  it('favours the conversation holding the question\'s words side by side', () => {
    const index = new CrossIndex<string>();
    // The same words and lengths in both; only in run.md do "charity run" stand together. apart.md
    // is added first, so without the pairs it would win the tie.
    index.sync('apart.md', [u('I did a charity bake sale, then a run.'), a('Well done on both.')], 0);
    index.sync('run.md', [u('I did a bake sale, then a charity run.'), a('Well done on both.')], 0);
    for (const topic of ['garden', 'bread', 'car', 'tax']) index.sync(`${topic}.md`, [u(`A question about my ${topic}.`), a(`An answer about your ${topic}.`)], 0);
    const ask = (ranking?: { pairWeight: number }) => index.search('which charity run did I do?', { limit: 5, asker: 'user', ...(ranking ? { ranking } : {}) })[0]?.conversation;
    expect(ask()).toBe('run.md');
    expect(ask({ pairWeight: 0 })).toBe('apart.md');
  });

  it('knows the date of its newest conversation (0 when none is dated)', () => {
    const index = new CrossIndex<string>();
    expect(index.newestDate()).toBe(0);
    index.sync('a.md', [u('x')], 0);
    expect(index.newestDate()).toBe(0);
    index.sync('b.md', [u('y')], Date.UTC(2024, 0, 2));
    index.sync('c.md', [u('z')], Date.UTC(2024, 0, 1));
    expect(index.newestDate()).toBe(Date.UTC(2024, 0, 2));
    index.remove('b.md');
    expect(index.newestDate()).toBe(Date.UTC(2024, 0, 1));
  });

  it('reads a date the question names, with or without its year', () => {
    const now = Date.UTC(2024, 5, 30, 12);
    const day = (q: string, asked = 0) => {
      const h = queryTimeHint(q, asked);
      return h ? [new Date(h.from).toISOString().slice(0, 10), new Date(h.to).toISOString().slice(0, 10)] : null;
    };
    // With its year, the day asked is not needed.
    expect(day('Which team did John sign with on 21 May, 2023?')).toEqual(['2023-05-21', '2023-05-21']);
    expect(day('What did I say on November 6, 2023?')).toEqual(['2023-11-06', '2023-11-06']);
    expect(day('What did Calvin book on 1st September 2023?')).toEqual(['2023-09-01', '2023-09-01']);
    expect(day('What did Tim start learning in August 2023?')).toEqual(['2023-08-01', '2023-08-31']);
    // Without it: the latest such day or month by the day asked; unknown when that is not known.
    expect(day('what did we plan on 3 August?', now)).toEqual(['2023-08-03', '2023-08-03']);
    expect(day('what did we plan on 3 June?', now)).toEqual(['2024-06-03', '2024-06-03']);
    expect(day('who played at the festival in October?', now)).toEqual(['2023-10-01', '2023-10-31']);
    expect(day('who played at the festival in October?')).toBeNull();
    // "May" the verb is no month.
    expect(day('you may know the answer', now)).toBeNull();
    // A date's words stay in the query (conversations write them too); "ago" and "last" do not.
    expect(timePhrase('what did I open in May 2023?')).toBe('');
    expect(timePhrase('what did I open two weeks ago?')).toBe('two weeks ago');
  });

  it('reads any written date as that day (property)', () => {
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2090, 11, 31)), noInvalidDate: true }), fc.boolean(), (date, dayFirst) => {
        const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
        const written = dayFirst ? `${d} ${months[m]}, ${y}` : `${months[m]} ${d}, ${y}`;
        const h = queryTimeHint(`What did we decide on ${written}?`, 0);
        expect(h?.from).toBe(Date.UTC(y, m, d));
        expect(timeFit(h!, Date.UTC(y, m, d, 15))).toBe(1);
      }),
    );
  });

  it('favours the conversation held on the day the question names, without knowing when it is asked', () => {
    const index = new CrossIndex<string>();
    index.sync('may.md', [u('We signed with the new team today.')], Date.UTC(2023, 4, 21, 19));
    index.sync('june.md', [u('We signed with the new team today.')], Date.UTC(2023, 5, 21, 19));
    expect(index.search('Which team did we sign with on 21 June, 2023?', { limit: 5, asker: 'user' })[0]?.conversation).toBe('june.md');
    expect(index.search('Which team did we sign with on 21 May, 2023?', { limit: 5, asker: 'user' })[0]?.conversation).toBe('may.md');
  });

  it('reads times for a question asked some day between two bounds', () => {
    const newest = Date.UTC(2024, 3, 10, 12);
    // Asked on the day of the newest conversation, "a couple of days ago" cannot be that day; asked
    // some day in the week after it, it can.
    const exact = queryTimeSpan('what did I cook a couple of days ago?', newest, newest);
    const week = queryTimeSpan('what did I cook a couple of days ago?', newest, newest + 7 * DAY);
    expect(timeFit(exact!, newest)).toBeLessThan(0.2);
    expect(timeFit(week!, newest)).toBe(1);
    expect(timeFit(week!, newest - 30 * DAY)).toBeLessThan(0.01);
    expect(week!.from).toBe(exact!.from);
    expect(queryTimeSpan('what did I cook?', newest, newest + 7 * DAY)).toBeNull();
    const index = new CrossIndex<string>();
    index.sync('march.md', [u('I cooked a curry for my friend')], newest - 20 * DAY);
    index.sync('newest.md', [u('I cooked a curry for my friend')], newest);
    index.sync('two-days.md', [u('I cooked a curry for my friend')], newest - 2 * DAY);
    const ranked = (askedBy: number) => index.search('what did I cook a couple of days ago?', { limit: 5, asker: 'user', now: newest, askedBy }).map((h) => h.conversation);
    expect(ranked(newest)).toEqual(['two-days.md', 'newest.md', 'march.md']);
    // Asked up to a week later, the newest fits as well as the one two days before it.
    expect(ranked(newest + 7 * DAY)).toEqual(['newest.md', 'two-days.md', 'march.md']);
  });

  it('a quoted phrase must be in the message quoted', () => {
    const index = new CrossIndex<string>();
    index.sync('x.md', [u('the shooting guard scored'), a('guard the shooting range')], 0);
    const hits = index.search('"shooting guard"', { limit: 5, asker: 'user' });
    expect(hits.map((h) => h.index)).toEqual([0]);
  });
});

describe('dates and question framing', () => {
  it('reads a conversation date from message times, else a leading stamp', () => {
    expect(conversationDate([{ createdAt: 5, content: 'x' }])).toBe(5);
    expect(conversationDate([{ createdAt: 0, content: '(2023/05/30 (Tue) 02:31) hello' }])).toBe(Date.UTC(2023, 4, 30, 2, 31));
    expect(conversationDate([{ createdAt: 0, content: 'no date' }])).toBe(0);
  });

  it('resolves time expressions against the day asked', () => {
    const now = Date.UTC(2024, 5, 30, 12);
    const h = queryTimeHint('What did I cook a couple of days ago?', now);
    expect(h?.phrase).toBe('a couple of days ago');
    expect(timeFit(h!, Date.UTC(2024, 5, 28))).toBe(1);
    expect(timeFit(h!, Date.UTC(2024, 3, 1))).toBeLessThan(0.01);
    expect(queryTimeHint('the three trips I took in the past three months', now)).toMatchObject({ to: now });
    expect(queryTimeHint('what did I buy last Friday', now)?.from).toBe(Date.UTC(2024, 5, 28));
    // 2024-06-30 is a Sunday: "this week" began on Monday the 24th.
    expect(queryTimeHint('what did I cook this week?', now)).toMatchObject({ from: Date.UTC(2024, 5, 24), to: now });
    expect(queryTimeHint('which film did I see earlier this month', now)).toMatchObject({ from: Date.UTC(2024, 5, 1), to: now });
    expect(queryTimeHint('what did I eat this morning', now)).toMatchObject({ from: Date.UTC(2024, 5, 30), to: now });
    expect(timePhrase('what did I eat this morning')).toBe('this morning');
    expect(queryTimeHint('what is my cat called', now)).toBeNull();
    expect(queryTimeHint('two weeks ago', 0)).toBeNull();
  });

  it('drops the words that frame the question, keeping the subject', () => {
    const q = 'I mentioned visiting a museum two months ago. Did I visit with a friend?';
    expect(subjectOf(q).split(/\W+/).filter(Boolean)).toEqual(['i', 'visiting', 'a', 'museum', 'did', 'i', 'visit', 'with', 'a', 'friend']);
    expect(subjectOf('what did you mention before?')).toBe('what did you mention before?'.replace(/mention|before/g, ' '));
    expect(subjectOf('previous conversation')).toBe('previous conversation');
  });
});

// The property: an index changed step by step answers as one built from the end state.
type Op =
  | { kind: 'save'; conv: number; messages: [boolean, number][] }
  | { kind: 'append'; conv: number; message: [boolean, number] }
  | { kind: 'rename'; from: number; to: number }
  | { kind: 'delete'; conv: number }
  | { kind: 'edit'; conv: number; at: number; message: [boolean, number] };

const WORDS = ['pond', 'liner', 'charity', 'donkey', 'bread', 'flour', 'race', 'club', 'I', 'you', 'what', 'the'];
const msg = fc.tuple(fc.boolean(), fc.nat(5000));
const textOf = ([user, seed]: [boolean, number]): IndexedMessage => ({
  role: user ? 'user' : 'assistant',
  text: Array.from({ length: 1 + (seed % 7) }, (_, i) => WORDS[(seed * (i + 3) + i * i) % WORDS.length]).join(' '),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('save' as const), conv: fc.nat(5), messages: fc.array(msg, { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('append' as const), conv: fc.nat(5), message: msg }),
  fc.record({ kind: fc.constant('rename' as const), from: fc.nat(5), to: fc.nat(5) }),
  fc.record({ kind: fc.constant('delete' as const), conv: fc.nat(5) }),
  fc.record({ kind: fc.constant('edit' as const), conv: fc.nat(5), at: fc.nat(6), message: msg }),
);

function answers(index: CrossIndex<string>): Record<string, number>[] {
  const queries = ['pond liner', 'what did you say about the donkey', 'I bread', '"flour race"', 'club'];
  return queries.map((q) => {
    const out: Record<string, number> = {};
    for (const h of index.search(q, { limit: 1000, asker: 'user', perConversation: 1000 })) out[`${h.conversation}#${h.index}`] = h.score;
    return out;
  });
}

describe('CrossIndex property', () => {
  it('after any sequence of saves, appends, renames, deletes and outside edits it equals an index built from scratch', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const index = new CrossIndex<string>();
        // The truth: what each note holds now.
        const notes = new Map<string, IndexedMessage[]>();
        for (const o of ops) {
          if (o.kind === 'save') {
            notes.set(`c${o.conv}`, o.messages.map(textOf));
            index.sync(`c${o.conv}`, o.messages.map(textOf), o.conv);
          } else if (o.kind === 'append') {
            const key = `c${o.conv}`;
            notes.set(key, [...(notes.get(key) ?? []), textOf(o.message)]);
            if (!index.has(key)) index.sync(key, [], o.conv);
            index.append(key, textOf(o.message));
          } else if (o.kind === 'rename') {
            const from = `c${o.from}`;
            const to = `c${o.to}`;
            const held = notes.get(from);
            if (!held || from === to) continue;
            notes.delete(from);
            notes.set(to, held);
            index.rename(from, to);
          } else if (o.kind === 'delete') {
            notes.delete(`c${o.conv}`);
            index.remove(`c${o.conv}`);
          } else {
            // An edit outside the plugin: the note is read again and synced whole.
            const key = `c${o.conv}`;
            const held = [...(notes.get(key) ?? [])];
            held[Math.min(o.at, held.length)] = textOf(o.message);
            notes.set(key, held);
            index.sync(key, held, o.conv);
          }
        }
        const scratch = new CrossIndex<string>();
        for (const [key, messages] of notes) scratch.sync(key, messages, 0);
        expect(new Set(index.keys())).toEqual(new Set(scratch.keys()));
        for (const key of notes.keys()) expect(index.messagesOf(key)).toEqual(scratch.messagesOf(key));
        const got = answers(index);
        const want = answers(scratch);
        got.forEach((g, i) => {
          expect(Object.keys(g).sort()).toEqual(Object.keys(want[i] ?? {}).sort());
          for (const [k, v] of Object.entries(g)) expect(Math.abs(v - (want[i]?.[k] ?? NaN))).toBeLessThan(0.0011);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('CrossIndex memory', () => {
  it('rebuilds itself once replaced messages outnumber the held ones, answering as before', () => {
    const index = new CrossIndex<string>();
    index.sync('other.md', [u('the pond liner is EPDM'), a('noted')], 0);
    // A streaming reply saved again and again: its message replaced on every save.
    let last = '';
    for (let i = 0; i < 25_000; i++) {
      last = `growing reply ${'word '.repeat(i % 7)}${i}`;
      index.sync('chat.md', [u('tell me about ponds'), a(last)], 0);
    }
    expect(index.deadSlots).toBeLessThan(10_001);
    expect(index.messagesOf('chat.md')).toEqual([u('tell me about ponds'), a(last)]);
    const fresh = new CrossIndex<string>();
    fresh.sync('other.md', [u('the pond liner is EPDM'), a('noted')], 0);
    fresh.sync('chat.md', [u('tell me about ponds'), a(last)], 0);
    for (const q of ['pond', 'growing reply', '"pond liner"']) expect(index.search(q, { limit: 10, asker: 'user' })).toEqual(fresh.search(q, { limit: 10, asker: 'user' }));
  });
});

describe('question frame', () => {
  it('drops "the order of" but keeps "order" as a subject', () => {
    expect(subjectOf('What is the order of the three trips?').split(/\W+/).filter(Boolean)).toEqual(['what', 'is', 'the', 'three', 'trips']);
    expect(subjectOf('What did I order at the diner?')).toContain('order');
  });
});
