// The conversation's threads as the block's skeleton (issue 29): segmentation at sessions and new
// requests, a thread that comes back joined to its earlier part, heads in the thread's own words,
// no Goal where nobody asked for anything, facts that stand alone, events above reactions, and the
// speakers named. Hand-written conversations only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockSection } from '../../src/core/block-format';
import { compact } from '../../src/core/compact';
import { selectFacts } from '../../src/core/extract-facts';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { estimateTokens } from '../../src/core/tokens';
import { findSpeakers } from '../../src/core/speakers';
import { conversationKind, extractThreads } from '../../src/core/threads';
import { goesOn, isReaction, newsRank, onlyShows, opensOnPointer, pointsEarly, tellsEvent, tellsNews } from '../../src/core/salience';
import { FactLayout } from '../../src/core/thread-format';
import { headByAsked } from '../../src/core/listed-answers';
import type { SourcedLine, ThreadLine } from '../../src/core/record';
import { ok } from './compacted';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 3, 18, 0);
let seq = 0;
const msg = (role: 'user' | 'assistant', content: string, at: number): ChatMessage => ({ id: `t${seq++}`, role, content, createdAt: at });

/** Two friends over three evenings: a pottery class, a new puppy, then the pottery class again. */
function friends(): ChatMessage[] {
  seq = 0;
  const day = (d: number, i: number): number => T0 + d * DAY + i * 60_000;
  return [
    msg('user', 'Hey Maya! I finally signed up for the wheel throwing class at the Clayworks studio on Elm Street.', day(0, 0)),
    msg('assistant', 'Hi Jonas! That sounds great. My sister took a glazing course at Clayworks last spring and loved the teachers there.', day(0, 1)),
    msg('user', 'My first bowl collapsed twice, but the teacher showed me how to center the clay with my elbows braced.', day(0, 2)),
    msg('assistant', 'I remember my first mug from a summer camp, it leaned like a tower. My cousin still uses it for pencils.', day(0, 3)),
    msg('user', 'The studio fires the pieces in a gas kiln every Thursday, so my bowls will be glazed next week.', day(0, 4)),
    msg('user', 'Our teacher Ines worked for twenty years at a ceramics factory in Delft before she opened the Clayworks wheel throwing class for beginners.', day(0, 6)),
    msg('assistant', 'My grandfather collected Delft blue tiles, and he kept a whole wall of them in his workshop behind the bakery in Haarlem.', day(0, 7)),
    msg('assistant', 'Wow, that is so cool! Keep going, you are doing great!', day(0, 8)),
    msg('user', 'Big news, Maya: we adopted a beagle puppy named Biscuit from the Riverside animal shelter on Saturday.', day(4, 0)),
    msg('assistant', 'Congratulations, Jonas! My family had a beagle named Pepper when I was a kid, and she howled at every siren.', day(4, 1)),
    msg('user', 'Biscuit already chewed one of my running shoes, so I ordered a crate and puppy training lessons at Pawsome Academy.', day(4, 2)),
    msg('assistant', 'My neighbour sent her terrier to Pawsome Academy and the leash pulling stopped within three weeks.', day(4, 3)),
    msg('user', 'The vet said Biscuit needs his second vaccination in two weeks before he can meet other dogs at the park.', day(4, 4)),
    msg('user', 'We also bought a blue harness and a chew toy shaped like a carrot, and Biscuit sleeps in the crate next to the radiator.', day(4, 6)),
    msg('assistant', 'My brother trained his labrador to ring a bell by the back door, which might work for Biscuit when he needs to go out.', day(4, 7)),
    msg('user', 'My landlord agreed to the puppy after I promised to replace the hallway carpet if Biscuit ruins it, and he signed a note about it.', day(4, 9)),
    msg('assistant', 'My cousin in Utrecht had the same deal with her landlord and ended up buying washable runner rugs from a shop near the canal.', day(4, 10)),
    msg('user', 'Biscuit weighs four kilos now and the breeder card from the shelter says he was born on the second of January.', day(4, 11)),
    msg('assistant', 'My old beagle Pepper loved frozen carrots on hot days, and our vet in Leiden said they were good for her teeth.', day(4, 12)),
    msg('assistant', 'That is amazing, I am so happy for you!', day(4, 13)),
    msg('user', 'Back at the Clayworks studio tonight: my bowls came out of the gas kiln with a celadon glaze and no cracks.', day(9, 0)),
    msg('assistant', 'My sister says celadon glaze at Clayworks always turns out greener than the sample tiles.', day(9, 1)),
    msg('user', 'Ines wants every student to bring a sketch of the teapot shape and a list of the glazes they would like to try next month.', day(9, 5)),
    msg('assistant', 'My sister made a teapot at Clayworks with a bamboo handle that she bought at the market in Amsterdam on a Sunday.', day(9, 6)),
    msg('user', 'Next month the wheel throwing class moves on to teapots, which need a lid, a spout and a handle.', day(9, 2)),
    msg('assistant', 'Good luck with it!', day(9, 3)),
    msg('user', 'Thanks Maya, talk soon.', day(9, 4)),
    msg('assistant', 'Bye Jonas!', day(9, 5)),
  ];
}

/** An assistant chat: a drip irrigation question, a tax form question, then irrigation again. */
function assistantChat(): ChatMessage[] {
  seq = 0;
  const at = (i: number): number => T0 + i * 60_000;
  return [
    msg('user', 'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?', at(0)),
    msg('assistant', 'The Gardena Micro-Drip starter kit waters up to twenty plants from one tap and costs about 60 euros. Its pressure reducer keeps the drippers at 1.5 bar, which suits raised beds.', at(1)),
    msg('user', 'I bought the Gardena kit yesterday and laid the supply pipe along the two raised beds.', at(2)),
    msg('assistant', 'Place one dripper per tomato plant, ten centimetres from the stem, and run the system twenty minutes each morning.', at(3)),
    msg('user', 'Please explain which box of the Dutch income tax form holds the mortgage interest deduction.', at(4)),
    msg('assistant', 'Mortgage interest for your own home goes in box 1 of the income tax return, under the heading eigen woning. The deduction applies only to a loan taken for buying or renovating that home.', at(5)),
    msg('user', 'The tax office letter asks for the annual statement from the bank, which I downloaded as a PDF.', at(6)),
    msg('assistant', 'Attach the annual statement as a PDF when you submit the return online through the Mijn Belastingdienst portal.', at(7)),
    msg('user', 'Should the Gardena drippers on the tomato beds run longer during the July heat wave?', at(8)),
    msg('assistant', 'During a heat wave run the Gardena drippers twice a day, twenty minutes in the morning and ten in the evening, and check that the raised beds stay moist five centimetres down.', at(9)),
    msg('user', 'Thanks, that helps.', at(10)),
    msg('assistant', 'You are welcome.', at(11)),
  ];
}

const removedText = (chat: readonly ChatMessage[], cut: number): string => chat.slice(0, cut).map((m) => m.content).join('\n');

describe('threads of a conversation between two friends', () => {
  const chat = friends();
  const r = ok(compact(chat, { budgetTokens: 1000, cut: 27, model: 'gpt-4o', now: 1 }));

  it('reads it as talk, with no Goal and no constraints', () => {
    expect(r.record.kind).toBe('talk');
    expect(r.block).not.toMatch(/^Goal:/m);
    expect(r.block).not.toMatch(/^Constraints/m);
  });

  it('lays a small block out by session too: a few tokens of heads say what each evening was about', () => {
    const small = ok(compact(chat, { budgetTokens: 400, cut: 27, model: 'gpt-4o', now: 1 }));
    expect(estimateTokens(small.block, 'gpt-4o')).toBeLessThanOrEqual(400);
    expect(small.block).toMatch(/^### \d+ March 2025: /m);
  });

  it('cuts it at the session gaps, each session a thread of its own though pottery comes back', () => {
    const threads = r.record.threads ?? [];
    // Evening 1 (pottery), evening 2 (the puppy), evening 3 (pottery again): friends come back to
    // the same subjects every time they talk, and what a reader follows is each evening's news.
    expect(threads).toHaveLength(3);
    const start = chat.findIndex((m) => m.content.startsWith('Back at the Clayworks studio'));
    const third = threads.find((t) => t.from === chat[start]?.createdAt);
    expect(third?.to).toBe(chat[26]?.createdAt);
    // Facts of the third evening name its thread (there are some: the loop is not empty).
    const facts = r.record.facts.filter((f) => Number((f.sources[0] ?? 't0').slice(1)) >= start);
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) expect(f.thread).toBe(third?.id);
  });

  it('heads each thread with its own words and its days, facts under it', () => {
    const heads = r.block.split('\n').filter((l) => l.startsWith('### '));
    expect(heads.length).toBe(3);
    expect(heads[0]).toMatch(/^### 3 March 2025: /);
    const source = removedText(chat, 27);
    for (const head of heads) {
      const phrases = head.slice(head.indexOf(': ') + 2).split(', ');
      expect(phrases.length).toBeGreaterThan(0);
      for (const p of phrases) expect(source).toContain(p);
    }
  });

  it('names the speakers and labels facts with their names', () => {
    expect(r.record.speakers).toEqual({ user: 'Jonas', assistant: 'Maya' });
    expect(r.block).toContain('Speakers: Jonas (as user), Maya (as assistant)');
    expect(r.block).toMatch(/^- Jonas(?:, \d+ \w+ \d{4})?: /m);
    expect(r.block).not.toMatch(/^- (?:User|Assistant)\b/m);
    // Either could have said the line the conversation left off at: it names who did.
    expect(r.block).toMatch(/^Left off:\n- (?:Jonas|Maya): /m);
    expect(blockSection(r.block, 'leftOff')).toMatch(/^Left off:\n- (?:Jonas|Maya): /);
  });

  it('names who said the line it left off at, though that line is no key fact', () => {
    const chat = friends();
    chat[26] = { ...(chat[26] as ChatMessage), content: 'So, the Lake District?' };
    const r2 = ok(compact(chat, { budgetTokens: 1000, cut: 27, model: 'gpt-4o', now: 1 }));
    expect(r2.record.facts.some((f) => f.text.includes('Lake District'))).toBe(false);
    expect(r2.block).toMatch(/^Left off:\n- (?:Jonas|Maya): So, the Lake District\?/m);
  });

  it('shows with the line it left off at the question that line answers', () => {
    const chat = friends();
    chat[25] = { ...(chat[25] as ChatMessage), content: 'Have you ever been to the Keukenhof gardens near Lisse? I am planning a trip there with my sister next month.' };
    chat[26] = { ...(chat[26] as ChatMessage), content: 'I have not been there yet, but the tulip fields around Lisse are on my list for this spring.' };
    const r2 = ok(compact(chat, { budgetTokens: 1000, cut: 27, model: 'gpt-4o', now: 1 }));
    const left = blockSection(r2.block, 'leftOff');
    // The exchange in its order under one heading: the question, then the line that answers it.
    expect(left.split('\n').slice(0, 3)).toEqual([
      'Left off:',
      '- Maya: Have you ever been to the Keukenhof gardens near Lisse? I am planning a trip there with my sister next month.',
      '- Jonas: I have not been there yet, but the tulip fields around Lisse are on my list for this spring.',
    ]);
  });

  it('keeps events, not reactions', () => {
    expect(r.block).toContain('we adopted a beagle puppy named Biscuit');
    expect(r.block).not.toContain('Keep going, you are doing great!');
    expect(r.block).not.toContain('I am so happy for you');
  });
});

describe('rules of the current thread', () => {
  it('with an assistant over many threads, keeps only the rules said since the latest thread began', () => {
    seq = 0;
    const day = (d: number): number => T0 + d * 86_400_000;
    const topics = ['tomato seedlings for a balcony', 'a budget for a weekend in Lisbon', 'a birthday card for my aunt', 'a reading list about volcanoes', 'a stretching routine for runners'];
    const chat: ChatMessage[] = topics.flatMap((t, i) => [
      msg('user', `Can you help me plan ${t}? ${i === 0 ? 'Only use organic fertiliser in every suggestion.' : i === 4 ? 'Never suggest exercises that need equipment.' : ''}`, day(i)),
      msg('assistant', `Here is a careful plan for ${t}. ${'Each step comes in order with the reason for it, what it costs and how long it takes to finish. '.repeat(6)}`, day(i) + 60_000),
    ]);
    chat.push(msg('user', 'Thanks, that is all for today.', day(4) + 120_000), msg('assistant', 'Glad to help.', day(4) + 180_000));
    const r = ok(compact(chat, { budgetTokens: 1200, cut: chat.length - 2, model: 'gpt-4o', now: 1 }));
    expect(r.record.kind).toBe('assist');
    expect((r.record.threads ?? []).length).toBeGreaterThanOrEqual(4);
    expect(r.record.constraints.map((c) => c.text)).toContain('Only use organic fertiliser in every suggestion.');
    // (An old session's rule is no standing constraint: it stays, if at all, under its own thread.)
    const rules = r.block.split('Constraints and preferences:')[1]?.split('\nKey facts:')[0] ?? '';
    expect(rules).not.toContain('Only use organic fertiliser');
    const heads = r.block.split('\n').filter((l) => l.startsWith('### '));
    expect(heads.length).toBeGreaterThanOrEqual(4);
    expect(r.block).toContain('Never suggest exercises that need equipment.');
    // Over many threads the latest request is no goal of the whole chat; answered, it is no
    // "Latest request:" either, but its thread's head.
    expect(r.block).not.toMatch(/^Goal:/m);
    expect(r.block).not.toMatch(/^Latest request:/m);
    expect(heads.some((h) => h.includes('Can you help me plan a stretching routine for runners?'))).toBe(true);
  });
});

describe('one reading of the kind for the whole conversation', () => {
  it('keeps talk in a later round whose own slice reads as an assistant chat', () => {
    const chat = friends();
    const first = ok(compact(chat, { budgetTokens: 1000, cut: 27, model: 'gpt-4o', now: 1 }));
    expect(first.record.kind).toBe('talk');
    const later: ChatMessage[] = [
      ...chat,
      ...Array.from({ length: 8 }, (_, i): ChatMessage[] => [
        { id: `q${i}`, role: 'user', content: `Can you recommend a good glaze recipe number ${i} for stoneware bowls fired at cone six?`, createdAt: T0 + (20 + i) * 86_400_000 },
        { id: `r${i}`, role: 'assistant', content: `A classic recipe ${i} mixes feldspar, silica, whiting and kaolin, with a little rutile for a soft variegated surface.`, createdAt: T0 + (20 + i) * 86_400_000 + 60_000 },
      ]).flat(),
    ];
    const second = ok(compact(later, { budgetTokens: 1000, cut: later.length - 2, model: 'gpt-4o', now: 1, previous: first.record }));
    // (Read alone, the later slice is an assistant chat: the record keeps the first reading.)
    expect(ok(compact(later.slice(28), { budgetTokens: 1000, cut: 14, model: 'gpt-4o', now: 1 })).record.kind).toBe('assist');
    expect(second.record.kind).toBe('talk');
  });
});

describe('threads of a chat with an assistant', () => {
  it('opens a thread at a new request, joins the request that comes back, heads threads with their requests', () => {
    const chat = assistantChat();
    const r = ok(compact(chat, { budgetTokens: 1000, cut: 10, model: 'gpt-4o', now: 1 }));
    expect(r.record.kind).toBe('assist');
    const threads = r.record.threads ?? [];
    expect(threads.map((t) => t.text)).toEqual([
      'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?',
      'Please explain which box of the Dutch income tax form holds the mortgage interest deduction.',
    ]);
    expect(threads.every((t) => t.head === 'request' && t.state === 'answered')).toBe(true);
    // The heat-wave question went back to the irrigation thread.
    const irrigation = threads[0]?.id;
    const late = r.record.facts.filter((f) => f.sources[0] === 't8' || f.sources[0] === 't9');
    expect(late.length).toBeGreaterThan(0);
    for (const f of late) expect(f.thread).toBe(irrigation);
    // With a few threads the first request is still the goal; the latest is shown beside it.
    expect(r.block).toMatch(/^Goal: Can you recommend a drip irrigation kit/m);
  });

  it('keeps with an answer list the request it answers', () => {
    const chat = assistantChat();
    const at = (i: number): number => T0 + i * 60_000;
    chat.splice(10, 0,
      msg('user', 'Which tomato varieties grow well with the Gardena drippers in raised beds?', at(9.5)),
      msg('assistant', 'These do well with drip watering:\n1. **Moneymaker** - a reliable red salad tomato\n2. **Gardeners Delight** - sweet cherry tomatoes\n3. **San Marzano** - a plum tomato for sauce\n4. **Black Krim** - a dark beefsteak', at(9.6)),
    );
    const r = ok(compact(chat, { budgetTokens: 2000, cut: 12, model: 'gpt-4o', now: 1 }));
    const list = r.record.facts.find((f) => f.listed);
    expect(list?.text).toBe('Moneymaker; Gardeners Delight; San Marzano; Black Krim');
    expect(list?.asked).toBe('Which tomato varieties grow well with the Gardena drippers in raised beds?');
  });

  it('heads a list with the question it answers when the thread head asked something else, with no line of its own', () => {
    const thread = (id: number, text: string): ThreadLine => ({ id, text, head: 'request', sources: [`t${id}`], at: 0, from: 0, to: id, score: 1, round: 1 });
    const layout = new FactLayout({ threads: [thread(1, 'Can you recommend a drip irrigation kit?'), thread(2, 'Which box of the tax form holds the deduction?')], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const facts: SourcedLine[] = [
      { text: 'Moneymaker; San Marzano; Black Krim', sources: ['a1'], at: 0, score: 1, round: 1, seq: 1, thread: 1, listed: true, asked: 'Which tomato varieties grow well with the drippers?' },
      { text: 'Box 1; Box 3', sources: ['a2'], at: 0, score: 1, round: 1, seq: 2, thread: 2, listed: true, asked: 'Which box of the tax form holds the deduction?' },
    ];
    expect(layout.lines(facts)).toEqual([
      '### Asked: Which tomato varieties grow well with the drippers?',
      '- Assistant listed: Moneymaker; San Marzano; Black Krim',
      '### Asked: Which box of the tax form holds the deduction?',
      '- Assistant listed: Box 1; Box 3',
    ]);
  });

  it('heads a thread of keyword phrases with the request its list answers', () => {
    const phrases: ThreadLine = { id: 1, text: 'Gourmet Food Basket, Ann Arbor', head: 'phrases', sources: ['u0'], at: 0, from: 0, to: 1, score: 1, round: 2 };
    const request: ThreadLine = { id: 2, text: 'Can you recommend a drip irrigation kit?', head: 'request', sources: ['u2'], at: 0, from: 0, to: 2, score: 1, round: 2 };
    const older: ThreadLine = { ...phrases, id: 3, round: 1 };
    const threads = [phrases, request, older];
    const removed: ChatMessage[] = ['u0', 'u1', 'a1', 'u2', 'a2'].map((id) => ({ id, role: id.startsWith('a') ? 'assistant' : 'user', content: '', createdAt: 0 }));
    const answers = [
      { id: 'a1', at: 0, message: 2, heads: ['Gourmet Food Basket', 'Desk Accessory', 'Plant'], asked: "I'm looking for some gift ideas for my colleagues." },
      { id: 'a2', at: 0, message: 4, heads: ['Gardena', 'Rain Bird', 'Hozelock'], asked: 'Which kit waters twelve plants?' },
    ];
    headByAsked(threads, answers, removed, new Map([['a1', 1], ['a2', 2], ['u9', 3]]), 2);
    expect(phrases).toMatchObject({ text: "I'm looking for some gift ideas for my colleagues.", head: 'request', sources: ['u1'] });
    // A thread a request heads keeps its head; one of an earlier round is left as it was.
    expect(request.text).toBe('Can you recommend a drip irrigation kit?');
    expect(older.text).toBe('Gourmet Food Basket, Ann Arbor');
  });

  it('keeps the plain layout when the conversation has one thread', () => {
    const chat = assistantChat().slice(0, 4);
    const more = [
      msg('user', 'How deep should the Gardena supply pipe lie under the mulch of the raised beds?', T0 + 5 * 60_000),
      msg('assistant', 'Lay the Gardena supply pipe on the soil under five centimetres of mulch, so the drippers stay visible for checks.', T0 + 6 * 60_000),
      msg('user', 'Thanks!', T0 + 7 * 60_000),
      msg('assistant', 'Happy gardening.', T0 + 8 * 60_000),
    ];
    const r = ok(compact([...chat, ...more], { budgetTokens: 1000, cut: 6, model: 'gpt-4o', now: 1 }));
    expect(r.record.threads).toHaveLength(1);
    expect(r.block).not.toContain('### ');
    expect(r.block).toMatch(/^Goal: Can you recommend a drip irrigation kit/m);
  });
});

describe('rules said again', () => {
  it('keeps a rule pasted again with another tail once', () => {
    seq = 0;
    const rule = 'Never use stock photos from unknown sites in the slides for the quarterly review';
    const chat = [
      msg('user', `${rule}. Make the first slide about revenue.`, T0),
      msg('assistant', 'The first slide shows revenue by quarter, from 1.2 to 1.9 million euros.', T0 + 1),
      msg('user', `${rule}, as before. Now the second slide about hiring.`, T0 + 2),
      msg('assistant', 'The second slide shows the 14 hires of this year by team.', T0 + 3),
      msg('user', `${rule} again, please. Now the third slide about costs.`, T0 + 4),
      msg('assistant', 'The third slide shows costs, with rent as the largest item.', T0 + 5),
      msg('user', 'Thanks.', T0 + 6),
      msg('assistant', 'You are welcome.', T0 + 7),
    ];
    const r = ok(compact(chat, { budgetTokens: 1000, cut: 6, model: 'gpt-4o', now: 1 }));
    expect(r.record.constraints.filter((c) => c.text.startsWith('Never use stock photos'))).toHaveLength(1);
  });
});

describe('facts that stand alone', () => {
  it('carries a pointer-led sentence with the sentence before it, or not at all', () => {
    seq = 0;
    const msgs = [
      msg('user', 'I just finished reading The Name of the Wind on the train to Leeds. It is a fantasy novel by Patrick Rothfuss about a young musician.', T0),
      msg('assistant', 'It was published in 2007 and won the Quill Award for science fiction and fantasy.', T0 + 1),
    ];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 400, round: 1 }).map((f) => f.text);
    expect(facts).toContain('I just finished reading The Name of the Wind on the train to Leeds. It is a fantasy novel by Patrick Rothfuss about a young musician.');
    expect(facts.some((f) => f.startsWith('It is a fantasy novel'))).toBe(false);
    // No sentence before it in its message: no fact.
    expect(facts.some((f) => f.startsWith('It was published in 2007'))).toBe(false);
  });

  it('carries a sentence that points early at what it does not name with the sentence before it', () => {
    seq = 0;
    const msgs = [msg('user', 'My new easel stands by the window of the attic studio. I got it from another painter in Utrecht as a birthday gift.', T0)];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 400, round: 1 }).map((f) => f.text);
    expect(facts).toContain('My new easel stands by the window of the attic studio. I got it from another painter in Utrecht as a birthday gift.');
    expect(pointsEarly('I got it from another painter.')).toBe(true);
    expect(pointsEarly('I know that the shop opens at nine.')).toBe(false);
  });

  it('never leaves off on a reaction or a sentence leaning on the one before it', () => {
    const chat = friends();
    chat[26] = { ...(chat[26] as ChatMessage), content: 'I believe in you, Jonas. It must be an exciting time for the whole studio.' };
    const r = ok(compact(chat, { budgetTokens: 1000, cut: 27, model: 'gpt-4o', now: 1 }));
    expect(r.record.leftOff?.text ?? '').not.toMatch(/^(?:I believe in you|It must be)/);
  });

  it('tells pointers, reactions and events apart', () => {
    expect(opensOnPointer("That's the one I meant.")).toBe(true);
    expect(opensOnPointer('Theo brought the cake.')).toBe(false);
    // The answer of a written-out Q&A needs its question; a word opening on "A" does not.
    expect(opensOnPointer('A: Micro-interactions are small animations that give feedback.')).toBe(true);
    expect(opensOnPointer('A friend lent me the tent.')).toBe(false);
    // Contracted pointers, and replies that mean nothing without the question they answer.
    expect(opensOnPointer("It'll be a blast performing there!")).toBe(true);
    expect(opensOnPointer('Not yet, been pretty busy with rehearsals and traveling.')).toBe(true);
    expect(opensOnPointer('Nope, the garage was closed all week.')).toBe(true);
    expect(opensOnPointer('Definitely, those reminders really help.')).toBe(true);
    // A reply's word before a sentence that stands alone; "No one" is no reply.
    expect(opensOnPointer("Yeah, I'm turning a Japanese mansion into a recording studio.")).toBe(false);
    expect(opensOnPointer('No one was hurt in the accident.')).toBe(false);
    expect(opensOnPointer('Notes from the trip are in my journal.')).toBe(false);
    // "Which" asks in a question, and points back otherwise.
    expect(opensOnPointer('Which tomato varieties grow well with drippers?')).toBe(false);
    expect(opensOnPointer('Which is why I left the band in May.')).toBe(true);
    expect(isReaction('Wow, that is so cool!')).toBe(true);
    expect(isReaction('Good luck with the exam!')).toBe(true);
    // A wish for the other's news, which is gone: "Hope your injury is feeling better."
    expect(isReaction('Hope your injury is feeling better.')).toBe(true);
    expect(isReaction('Hopefully the new gym opens in May.')).toBe(false);
    // Sympathy for the other's news, which names the news but tells none: no session's news.
    expect(isReaction('Ouch, bummer about the injury.')).toBe(true);
    expect(newsRank('Ouch, bummer about the injury.')).toBe(0);
    expect(isReaction('What a bummer about the rejection.')).toBe(true);
    expect(isReaction('I hurt my ankle at practice last week, what a bummer.')).toBe(false);
    expect(isReaction('The exam is on Friday at nine.')).toBe(false);
    expect(tellsEvent('We adopted a beagle puppy from the shelter.')).toBe(true);
    expect(tellsEvent('Did you adopt the puppy?')).toBe(false);
    // ("won't" is no win: "fingers crossed it won't take too long" tells nothing that happened.)
    expect(tellsEvent("Waiting on the garage so I can drive again - fingers crossed it won't be long.")).toBe(false);
    expect(tellsEvent('We won the final by two points.')).toBe(true);
    // News: the speaker's own event, told as recent ("last week", "just", "yesterday").
    expect(tellsNews('My girlfriend and I had our wedding ceremony in a greenhouse last week.')).toBe(true);
    expect(tellsNews('Just skyped with the fan I met in California.')).toBe(true);
    expect(tellsNews('Did you finally get the keys yesterday?')).toBe(false);
    expect(tellsNews('Weddings are full of joy.')).toBe(false);
    expect(tellsNews("I'm planning to visit Universal Studios next month.")).toBe(true);
    expect(newsRank("We're going to Japan next month for our wedding.")).toBe(2);
    expect(newsRank('My girlfriend and I had our wedding ceremony in a greenhouse last week.')).toBe(2);
    expect(newsRank('The greenhouse was lovely and warm.')).toBe(0);
    expect(newsRank('Congrats on the wedding last week!')).toBe(0);
    // A sentence that only shows a picture; one that goes on from the sentence before it.
    expect(onlyShows("Here's my latest one! [shares a photo: a book opened to a page]")).toBe(true);
    expect(onlyShows('Wow! [shares a photo: a kiln full of bowls]')).toBe(true);
    // A promise of a picture says nothing once the picture is gone.
    expect(onlyShows("I'll show you a pic I took when they were playing. [shares a photo: a concert with a large eagle on the stage]")).toBe(true);
    expect(onlyShows("I'll show you around the harbour when you visit in June.")).toBe(false);
    expect(onlyShows('My bowls came out of the kiln with no cracks at all. [shares a photo: bowls]')).toBe(false);
    expect(goesOn("And there's a chance I'll visit more spots in the future.")).toBe(true);
    expect(goesOn('Andrea visited the spots in the future.')).toBe(false);
    expect(pointsEarly('I restored and modified it myself over the winter.')).toBe(true);
  });

  it('drops a sentence going on from one that cannot be carried', () => {
    seq = 0;
    // "Not yet" needs the question it answers, so the "But …" after it has nothing to go on from.
    const msgs = [
      msg('assistant', 'Have you explored the harbour district of Boston yet?', T0),
      msg('user', "Not yet, been pretty busy with rehearsals and traveling. But I'm looking forward to exploring the city and its food markets.", T0 + 1),
    ];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 400, round: 1, kind: 'talk' }).map((f) => f.text);
    expect(facts.some((f) => f.startsWith('Not yet'))).toBe(false);
    expect(facts.some((f) => f.startsWith("But I'm looking forward"))).toBe(false);
  });

  it('carries a sentence going on from the one before it with that sentence, never a picture alone', () => {
    const chat: ChatMessage[] = [
      { id: 'a0', role: 'user', content: 'I visited the Harry Potter studio tour in London with my sister in March. And there is a chance we will go back for the new forest exhibit next spring.', createdAt: T0 },
      { id: 'a1', role: 'assistant', content: "Here's my latest one! [shares a photo: a photography of a book opened to a page with a picture of a man]", createdAt: T0 + 60_000 },
    ];
    const facts = selectFacts(sentencesOf(chat), { poolTokens: 2000, round: 1, kind: 'talk' }).map((f) => f.text);
    expect(facts.some((f) => f.startsWith('And there is a chance'))).toBe(false);
    // (With it, or the sentence before alone, whichever ranks higher.)
    expect(facts.some((f) => f.startsWith('I visited the Harry Potter studio tour'))).toBe(true);
    expect(facts.some((f) => f.includes("Here's my latest one"))).toBe(false);
  });

  it('takes the latest thread further than the others: the kept messages go on with it', () => {
    const thread = (id: number, day: number): ThreadLine => ({ id, text: '', head: 'phrases', sources: [`t${id}`], at: 0, from: day, to: day, score: 1, round: 1 });
    const layout = new FactLayout({ threads: [thread(1, 10), thread(2, 20)], kind: 'assist', roleOf: () => 'user' });
    const line = (text: string, thread: number): SourcedLine => ({ text, sources: [`t${thread}`], at: 0, score: 1, round: 1, thread });
    const ranked = [line('First of the old thread.', 1), line('Second of the old thread.', 1), line('First of the latest.', 2), line('Second of the latest.', 2), line('Third of the latest.', 2), line('Fourth of the latest.', 2)];
    // (The latest thread's best first of all, then the others' bests, then the latest's next two.)
    expect(layout.spread(ranked).map((f) => f.text)).toEqual(['First of the latest.', 'First of the old thread.', 'Second of the latest.', 'Third of the latest.']);
  });

  it("with an assistant, takes each thread's answer first: its list, else the assistant's best sentence", () => {
    const thread = (id: number, day: number): ThreadLine => ({ id, text: `Request ${id} about the garden beds?`, head: 'request', sources: [`u${id}`], at: 0, from: day, to: day, score: 1, round: 1 });
    const layout = new FactLayout({ threads: [thread(1, 10), thread(2, 20), thread(3, 30)], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const line = (text: string, id: string, thread: number, over: Partial<SourcedLine> = {}): SourcedLine => ({ text, sources: [id], at: 0, score: 1, round: 1, thread, ...over });
    const ranked = [
      line('Which kit would you pick for twelve plants?', 'u1', 1),
      line('The Gardena kit waters twenty plants from one tap.', 'a1', 1),
      line('Can you also check the mulch depth?', 'u2', 2),
      line('Lay the pipe under five centimetres of mulch.', 'a2', 2),
      line('Gardena; Rain Bird; Hozelock', 'a2b', 2, { listed: true }),
      line('Thanks, that helps with the beds.', 'u3', 3),
    ];
    // (The latest thread, whose only line is the user's, first.)
    expect(layout.spread(ranked).slice(0, 3).map((f) => f.sources[0])).toEqual(['u3', 'a1', 'a2b']);
  });

  it("takes each session's news first between two people, not what the friend said of it", () => {
    const layout = new FactLayout({ threads: [], kind: 'talk', roleOf: () => 'user' });
    const line = (text: string, thread: number): SourcedLine => ({ text, sources: [`t${thread}`], at: 0, score: 1, round: 1, thread });
    const ranked = [
      line('Weddings are definitely full of joy and happiness for everyone.', 1),
      line('My girlfriend and I had an emotional wedding ceremony last week.', 1),
      line('The greenhouse venue had room for all our loved ones.', 2),
    ];
    expect(layout.spread(ranked).map((f) => f.text).slice(0, 2)).toEqual([ranked[1]?.text, ranked[2]?.text]);
  });

  it("keeps in the pool each speaker's news as they came back to a session, however it ranks", () => {
    // Session 2 opens on plain news in common words; the rest of the chat is full of rarer names.
    const names = ['Zanzibar Qawwali', 'Kilimanjaro Hall', 'Dhafer Youssef', 'Tinariwen Collective', 'Bamako Riverside', 'Oumou Sangare', 'Lagos Afrobeat', 'Fela Kuti', 'Accra Highlife', 'Ebo Taylor', 'Dakar Mbalax', 'Youssou Ndour', 'Nairobi Benga', 'Kampala Kadongo', 'Addis Ethiojazz', 'Mulatu Astatke', 'Luanda Semba', 'Bonga Kuenda'];
    const rare = (i: number): string => `The ${names[i % names.length]} band played ${names[(i + 5) % names.length]} with ${names[(i + 11) % names.length]} on ${i + 2} March.`;
    const chat: ChatMessage[] = [
      { id: 'u1', role: 'user', content: `${rare(1)} ${rare(2)}`, createdAt: T0 },
      { id: 'a1', role: 'assistant', content: `${rare(3)} ${rare(4)}`, createdAt: T0 + 60_000 },
      { id: 'u2', role: 'user', content: 'Hey! Good to hear from you.', createdAt: T0 + 5 * DAY },
      { id: 'u3', role: 'user', content: `I finally signed with a team, and it feels really good to be part of something like that again after such a long time away. ${rare(5)} ${rare(6)} ${rare(9)}`, createdAt: T0 + 5 * DAY + 60_000 },
      { id: 'a2', role: 'assistant', content: `${rare(7)} ${rare(8)}`, createdAt: T0 + 5 * DAY + 120_000 },
    ];
    const session = new Map([['u1', 1], ['a1', 1], ['u2', 2], ['u3', 2], ['a2', 2]]);
    const pick = (withSessions: boolean): string[] =>
      selectFacts(sentencesOf(chat), { poolTokens: 40, round: 1, kind: 'talk', ...(withSessions ? { sessionOf: (s: { id: string }) => session.get(s.id) } : {}) }).map((f) => f.text);
    const news = 'I finally signed with a team, and it feels really good to be part of something like that again after such a long time away.';
    expect(pick(false)).not.toContain(news);
    expect(pick(true)).toContain(news);
  });

  it('takes first in each session the news a speaker came back with over news told later in it', () => {
    const thread = (id: number, day: number): ThreadLine => ({ id, text: '', head: 'phrases', sources: [`t${id}`], at: 0, from: day, to: day, score: 1, round: 1 });
    const layout = new FactLayout({ threads: [thread(1, 10), thread(2, 20)], kind: 'talk', roleOf: () => 'user' });
    const line = (text: string, thread: number, opens = false): SourcedLine => ({ text, sources: [`t${thread}`], at: 0, score: 1, round: 1, thread, ...(opens ? { opens } : {}) });
    const ranked = [
      line('That is why I love my job so much, connecting with the crowd.', 2),
      line('A rival bakery took the contract we had chased for months.', 2, true),
      line('That is why I love my job so much, fixing old engines.', 1),
      line('A rival garage won the contract we bid on in spring.', 1, true),
    ];
    // The latest session first (the kept messages go on with it), then the others; each session
    // by its opening news.
    const firsts = layout.spread(ranked).map((f) => f.text);
    expect(firsts.slice(0, 2)).toEqual([ranked[1]?.text, ranked[3]?.text]);
  });

  it('takes first in the latest session the news a speaker came back with, over likelier news told later in it', () => {
    const thread = (id: number, day: number): ThreadLine => ({ id, text: '', head: 'phrases', sources: [`t${id}`], at: 0, from: day, to: day, score: 1, round: 1 });
    const layout = new FactLayout({ threads: [thread(1, 10), thread(2, 20)], kind: 'talk', roleOf: () => 'user' });
    const line = (text: string, thread: number, opens = false): SourcedLine => ({ text, sources: [`t${thread}`], at: 0, score: 1, round: 1, thread, ...(opens ? { opens } : {}) });
    // Told later, each session's first line is an event told as recent news (newsRank 2); the
    // openings are events without a time (newsRank 1).
    const ranked = [
      line('Last week I performed with a famous singer and loved the crowd.', 2),
      line('A rival bakery took the contract we had chased for months.', 2, true),
      line('Last week I performed at a festival in the park with my band.', 1),
      line('A rival garage took the contract we bid on in spring.', 1, true),
    ];
    const firsts = layout.spread(ranked).map((f) => f.text);
    // The latest session by its opening; an older one by its most newsworthy line.
    expect(firsts.slice(0, 2)).toEqual([ranked[1]?.text, ranked[2]?.text]);
  });

  it("never takes as a session's news a line leaning on a thing it does not name", () => {
    const layout = new FactLayout({ threads: [], kind: 'talk', roleOf: () => 'user' });
    const line = (text: string): SourcedLine => ({ text, sources: ['t1'], at: 0, score: 1, round: 1, thread: 1 });
    // Both tell an event; the first points at a whiteboard (in a photo) that no line names.
    const ranked = [line('On that whiteboard, I wrote down the quotes that got me through training last week.'), line('I started a new strength routine at the gym with my coach.')];
    expect(layout.spread(ranked)[0]?.text).toBe(ranked[1]?.text);
    // A pointer at a time is no such thing: "this week" names when.
    const timed = [line('This week I started a new strength routine at the gym.'), line('We finally moved that weekend into a new flat by the river.'), line('I joined a cooking class with my sister.')];
    expect(layout.spread(timed)[0]?.text).toBe(timed[0]?.text);
  });

  it("takes first in a session the news that says what the session's head names first", () => {
    const thread: ThreadLine = { id: 1, text: 'music gear, city lights, Tokyo', head: 'phrases', sources: ['t1'], at: 0, from: 10, to: 10, score: 1, round: 1 };
    const layout = new FactLayout({ threads: [thread], kind: 'talk', roleOf: () => 'user' });
    const line = (text: string): SourcedLine => ({ text, sources: ['t1'], at: 0, score: 1, round: 1, thread: 1 });
    // Both are news as newsworthy (newsRank 1); the one naming the head's topic goes first.
    const ranked = [line('Yesterday I sat at the harbour with my cousin all afternoon.'), line('Last week my place got flooded, but I saved my music gear.')];
    expect(layout.spread(ranked)[0]?.text).toBe(ranked[1]?.text);
    // Without the head's topic in it, the first in rank of the most newsworthy.
    const other = new FactLayout({ threads: [{ ...thread, text: 'city lights, Tokyo' }], kind: 'talk', roleOf: () => 'user' });
    expect(other.spread(ranked)[0]?.text).toBe(ranked[0]?.text);
  });

  it("at work, writes each of a message's facts on a line of its own; elsewhere a turn's facts share one", () => {
    const line = (text: string, seq: number): SourcedLine => ({ text, sources: ['a7'], at: 0, score: 1, round: 1, seq });
    const facts = [line('`get_order_by` reads the meta ordering.', 1), line('The recursion passes `order` as the default.', 2)];
    const input = { threads: [], roleOf: () => 'assistant' };
    // (Two findings of one long reasoning message glued on one line read as one run-on claim.)
    expect(new FactLayout({ ...input, kind: 'work' }).lines(facts)).toEqual(['- Assistant: `get_order_by` reads the meta ordering.', '- Assistant: The recursion passes `order` as the default.']);
    expect(new FactLayout({ ...input, kind: 'assist' }).lines(facts)).toEqual(['- Assistant: `get_order_by` reads the meta ordering. The recursion passes `order` as the default.']);
  });

  it('lays facts out plainly when the threads are not shown, never under a person they are not about', () => {
    const line = (text: string, id: string, thread: number, identity = false): SourcedLine => ({ text, sources: [id], at: 0, score: 1, round: 1, thread, ...(identity ? { identity } : {}) });
    const facts = [line('I play shooting guard for the Wolves.', 'a', 1, true), line('I went to a castle in the UK last Friday.', 'u', 2)];
    const input = { kind: 'talk' as const, roleOf: (id: string) => (id === 'u' ? 'user' : 'assistant'), speakers: { user: 'Tim', assistant: 'John' } };
    const small = new FactLayout({ ...input, threads: [] }).lines(facts);
    expect(small.join('\n')).not.toContain('### About');
    expect(small).toEqual(['- John: I play shooting guard for the Wolves.', '- Tim: I went to a castle in the UK last Friday.']);
    const thread = (id: number, day: number): ThreadLine => ({ id, text: '', head: 'phrases', sources: [`t${id}`], at: 0, from: day, to: day, score: 1, round: 1 });
    expect(new FactLayout({ ...input, threads: [thread(1, 10), thread(2, 20)] }).lines(facts)[0]).toBe('### About John:');
  });

  it('takes who each speaker is before any session news between two people, however it ranks', () => {
    const layout = new FactLayout({ threads: [], kind: 'talk', roleOf: (id) => (id === 'u' ? 'user' : 'assistant') });
    const news = (text: string, thread: number): SourcedLine => ({ text, sources: ['a'], at: 0, score: 2, round: 1, thread });
    const who: SourcedLine = { text: 'I have been working on music collaborations with Japanese artists.', sources: ['u'], at: 0, score: 0.5, round: 1, thread: 3, identity: true };
    const ranked = [news('I booked a trip to the mountains for next month.', 1), news('I joined a rock band last week.', 2), who];
    expect(layout.spread(ranked)[0]).toBe(who);
  });

  it('takes the latest session right after the people between two people: the kept messages go on with it', () => {
    const thread = (id: number, day: number): ThreadLine => ({ id, text: '', head: 'phrases', sources: [`t${id}`], at: 0, from: day, to: day, score: 1, round: 1 });
    const layout = new FactLayout({ threads: [thread(1, 10), thread(2, 20), thread(3, 30)], kind: 'talk', roleOf: () => 'user' });
    const news = (text: string, thread: number, score: number): SourcedLine => ({ text, sources: [`t${thread}`], at: 0, score, round: 1, thread });
    const ranked = [news('I booked a trip to the mountains for next month.', 1, 3), news('I joined a rock band last week.', 2, 2), news('I hurt my ankle last week and I am off the court.', 3, 1)];
    expect(layout.spread(ranked).map((f) => f.thread)).toEqual([3, 1, 2]);
  });

  it("heads what a speaker said of who they are with what they own or work as, though it ranks lower", () => {
    const layout = new FactLayout({ threads: [], kind: 'talk', roleOf: () => 'assistant' });
    const line = (text: string, thread: number): SourcedLine => ({ text, sources: [`t${thread}`], at: 0, score: 1, round: 1, thread, identity: true });
    const ranked = [
      line("Working on cars really helps me relax, I've been working on that Mustang from the junkyard.", 1),
      line('I finally opened my own car maintenance shop! It is a dream come true.', 2),
    ];
    expect(layout.group(ranked[1]!)).toBe('who:assistant');
    expect(layout.spread(ranked)[0]?.text).toBe(ranked[1]?.text);
  });

  it('ranks an event above a reaction between two people', () => {
    const facts = (() => {
      const chat = friends();
      return selectFacts(sentencesOf(chat.slice(0, 16)), { poolTokens: 2000, round: 1 }).map((f) => f.text);
    })();
    const event = facts.findIndex((f) => f.includes('we adopted a beagle puppy'));
    const reaction = facts.findIndex((f) => f.includes('That is amazing, I am so happy for you'));
    expect(event).toBeGreaterThanOrEqual(0);
    expect(reaction === -1 || reaction > event).toBe(true);
  });
});

describe('who is talking', () => {
  it('reads names from greetings and introductions, and none when unsure', () => {
    seq = 0;
    const chat = [msg('user', "Hi there, I'm Alex and I run the bakery on Main Street.", T0), msg('assistant', 'Hello Alex, nice to meet you.', T0 + 1)];
    expect(findSpeakers(chat)).toEqual({ user: 'Alex' });
    expect(findSpeakers([msg('user', 'Hey there!', T0), msg('assistant', 'Hi everyone.', T0 + 1)])).toEqual({});
  });

  it('tells an assistant chat from talk: an assistant that explains never says "my"', () => {
    const chat = assistantChat();
    expect(conversationKind(chat, sentencesOf(chat))).toBe('assist');
    const talk = friends();
    expect(conversationKind(talk, sentencesOf(talk))).toBe('talk');
  });

  it('reads a chat whose other side says it is an AI as an assistant chat, however personal it sounds', () => {
    const talk = friends();
    // The same personal talk, but one of the "my" stories comes from a model saying what it is.
    const chat = talk.map((m, i) => (i === 3 ? { ...m, content: `As an AI language model, I have no summer camp memories. ${m.content}` } : m));
    expect(conversationKind(chat, sentencesOf(chat))).toBe('assist');
  });
});

describe('threads: properties', () => {
  const word = fc.constantFrom('garden', 'violin', 'Lisbon', 'marathon', 'kiln', 'puppy', 'Rotterdam', 'recipe', 'tomatoes', 'concert', 'bicycle', 'Biscuit', 'lantern', 'harbour');
  const sentence = fc.array(word, { minLength: 4, maxLength: 9 }).map((ws) => `My ${ws.join(' ')} story is long.`);
  const session = fc.array(fc.tuple(sentence, sentence), { minLength: 2, maxLength: 6 });

  it('every head phrase is found in the removed text, the block fits its budget and is the same every time', () => {
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 5 }), fc.constantFrom(700, 1000, 1600), (sessions, budget) => {
        seq = 0;
        const chat: ChatMessage[] = [];
        sessions.forEach((s, d) => s.forEach(([a, b], i) => chat.push(msg('user', a, T0 + d * DAY + 2 * i * 60_000), msg('assistant', b, T0 + d * DAY + (2 * i + 1) * 60_000))));
        const cut = Math.max(2, chat.length - 2);
        const one = compact(chat, { budgetTokens: budget, cut, model: 'gpt-4o', now: 1 });
        const two = compact(chat, { budgetTokens: budget, cut, model: 'gpt-4o', now: 1 });
        if (!one.ok || !two.ok) return;
        expect(two.block).toBe(one.block);
        expect(estimateTokens(one.block, 'gpt-4o')).toBeLessThanOrEqual(budget);
        const source = removedText(chat, cut);
        for (const t of one.record.threads ?? []) {
          if (t.head !== 'phrases' || !t.text) continue;
          for (const p of t.text.split(', ')) expect(source).toContain(p);
        }
        // Every fact still names a removed message.
        const removed = new Set(chat.slice(0, cut).map((m) => m.id));
        for (const f of one.record.facts) expect(removed.has(f.sources[0] ?? '')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a new request moving on from the thread opens one of its own', () => {
  it('measures what the request shares, not the words before it that close the thread it leaves', () => {
    seq = 0;
    const at = (i: number): number => T0 + i * 60_000;
    const chat = [
      msg('user', 'Have you got any recipe suggestions for a traditional Indian chicken curry? My mom has been teaching me how to make it, and I want to try out some variations.', at(0)),
      msg('assistant', 'Here are a few variations of Indian chicken curry you might enjoy:\n1. **Butter chicken** - a creamy tomato curry\n2. **Chicken tikka masala** - grilled chicken in a spiced sauce\n3. **Chicken korma** - a mild curry with yogurt and nuts\nTry your mom\'s recipe with these spices and experiment with the variations.', at(1)),
      msg('user', "That's really helpful! I'll definitely try out some of these variations with my mom. By the way, do you have any advice on how to stay in touch with grandparents who live far away?", at(2)),
      msg('assistant', 'Staying close to grandparents across the miles takes a little routine. Schedule a weekly phone call on the same evening so they can look forward to it. Send handwritten letters and postcards; many grandparents keep them for years. Set up video visits on a tablet and show them your garden, your pets and your school projects. Share photo albums online and ask them to tell the stories behind their old pictures.', at(3)),
    ];
    const { threads, threadOf } = extractThreads(chat, sentencesOf(chat), 'assist', [], 1);
    expect(threads.length).toBe(2);
    expect(threadOf.get(chat[2]!.id)).not.toBe(threadOf.get(chat[0]!.id));
    expect(threadOf.get(chat[3]!.id)).toBe(threadOf.get(chat[2]!.id));
  });
});

describe('a thread opened by a pasted text with no request', () => {
  it("is headed by what the assistant said the text was, in its words, not by the text's names", () => {
    seq = 0;
    const day = (d: number, i: number): number => T0 + d * DAY + i * 60_000;
    const chat = [
      msg('user', 'From: Marta Visser\nTo: Joost de Wit; Lotte Bakker\nSubject: tulip idea\n\nI do not want to spell the plan out here. Bulbs sell out every spring in Lisse, and nobody ships them abroad well. We could ship tulip bulbs to growers in Canada before the frost. Meet at my place on Friday after eight.\n\nMarta', day(0, 0)),
      msg('assistant', 'This appears to be an email from Marta Visser to Joost de Wit and Lotte Bakker about shipping tulip bulbs to Canada. She suggests meeting on Friday to discuss it.', day(0, 1)),
      msg('user', 'What is a simple sourdough bread recipe for a beginner with a Dutch oven?', day(2, 0)),
      msg('assistant', 'Mix 500 g flour, 350 g water, 100 g starter and 10 g salt, and bake it at 250 °C for 40 minutes.', day(2, 1)),
    ];
    const { threads } = extractThreads(chat, sentencesOf(chat), 'assist', [], 1);
    expect(threads[0]?.text).toBe('This appears to be an email from Marta Visser to Joost de Wit and Lotte Bakker about shipping tulip bulbs to Canada.');
    expect(threads[0]?.sources).toEqual([chat[1]!.id]);
    expect(threads[1]?.text).toBe('What is a simple sourdough bread recipe for a beginner with a Dutch oven?');
  });
});

describe('a thread of pasted text headed by the request made of it', () => {
  it("takes the user's request that names what the paste is about, never one naming none of it", () => {
    seq = 0;
    const day = (d: number, i: number): number => T0 + d * DAY + i * 60_000;
    // (A pasted text: a dozen sentences or more.)
    const report = ['Income Approach section: the capitalization rate of the Keizersgracht office building is 5.2 %.', 'The Income Approach section weighs the net operating income.', 'The capitalization rate follows the Amsterdam market.', 'Comparable offices on the Herengracht sold at a lower capitalization rate.', 'The building has four floors of offices.', 'Its tenants sign leases of five years.', 'Vacancy stood at three percent last year.', 'Operating expenses rose with the energy prices.', 'The roof was renewed in 2019.', 'Parking is rented out separately.', 'The ground floor holds a bakery.', 'Rents are indexed every January.', 'The appraisal date is the first of March.'].join(' ');
    const chat = [
      msg('user', report, day(0, 0)),
      msg('assistant', 'Thank you for the report text, it reads clearly.', day(0, 1)),
      msg('user', 'Can you help me with that?', day(0, 2)),
      msg('assistant', 'Of course, tell me what you need.', day(0, 3)),
      msg('user', 'Help me outline every part of the Income Approach section of this valuation report.', day(0, 4)),
      msg('assistant', 'The Income Approach section can hold the rent roll, the operating expenses, the net operating income and the capitalization rate, each with its sources.', day(0, 5)),
      msg('user', 'What is a simple sourdough bread recipe for a beginner with a Dutch oven?', day(2, 0)),
      msg('assistant', 'Mix 500 g flour, 350 g water, 100 g starter and 10 g salt, and bake it at 250 °C for 40 minutes.', day(2, 1)),
    ];
    const { threads } = extractThreads(chat, sentencesOf(chat), 'assist', [], 1);
    expect(threads[0]?.text).toBe('Help me outline every part of the Income Approach section of this valuation report.');
    expect(threads[0]?.sources).toEqual([chat[4]!.id]);
    // A later request naming nothing the paste is about heads nothing: the phrases stay.
    chat[4] = { ...chat[4]!, content: 'Please write every answer in the English language from now on.' };
    const other = extractThreads(chat, sentencesOf(chat), 'assist', [], 1).threads[0];
    expect(other?.head).toBe('phrases');
    expect(other?.text).toMatch(/capitalization rate|Income Approach/);
  });
});

describe('rules in pasted text', () => {
  it('takes no rule from a long text the user pasted into a chat with an assistant, and keeps their own', () => {
    seq = 0;
    const filler = 'The agency reads every application in the order it arrives and scores it against the published criteria of the programme. ';
    const excerpt = `From the handbook "Winning Grants" by R. Osei:\n\nYou must submit the form online before the deadline of the call. Never send original certificates by post to the agency. ${filler.repeat(14)}You should NOT apply twice for the same project in one year.`;
    const chat = [
      msg('user', `${excerpt}\n\nCan you summarise this chapter in five points?`, T0),
      msg('assistant', 'The chapter says to apply online before the deadline, to keep originals at home, and to apply once a year per project.', T0 + 1),
      msg('user', 'Never use jargon in the summaries you write for me.', T0 + 2),
      msg('assistant', 'Understood: plain words only from now on.', T0 + 3),
      msg('user', 'Thanks.', T0 + 4),
      msg('assistant', 'You are welcome.', T0 + 5),
    ];
    expect(excerpt.length).toBeGreaterThan(1500);
    const r = ok(compact(chat, { budgetTokens: 1000, cut: 4, model: 'gpt-4o', now: 1 }));
    const rules = r.record.constraints.map((c) => c.text);
    expect(rules.some((t) => /submit the form online|original certificates|apply twice/.test(t))).toBe(false);
    expect(rules).toContain('Never use jargon in the summaries you write for me.');
  });
});
