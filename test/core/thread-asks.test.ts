// With an assistant, a thread's follow-up questions under its own head (thread-asks.ts), long answer
// lists shown in part with their count, a thread headed by the message that opened it, and a fact
// that repeats its head shown past it. Hand-written conversations only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIST_SHOWN, groupFacts, listCount, shownList } from '../../src/core/block-format';
import { compact } from '../../src/core/compact';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { sentPart, type SourcedLine, type ThreadLine } from '../../src/core/record';
import { askParts, askSections, pastHead } from '../../src/core/thread-asks';
import { FactLayout } from '../../src/core/thread-format';
import { extractThreads } from '../../src/core/threads';
import { ok } from './compacted';

const T0 = Date.UTC(2025, 4, 12, 9, 0);
const seqOf = (message: number): number => 1e9 + message * 1e4;
const roleOf = (id: string): string => (id.startsWith('a') ? 'assistant' : 'user');
const thread = (text: string, extra: Partial<ThreadLine> = {}): ThreadLine => ({ id: 1, text, head: 'request', sources: ['u0'], at: T0, from: T0, to: T0, score: 1, round: 1, ...extra });
const fact = (text: string, id: string, m: number, extra: Partial<SourcedLine> = {}): SourcedLine => ({ text, sources: [id], at: T0, score: 1, round: 1, seq: seqOf(m), thread: 1, ...extra });
const other = thread('Can you suggest a vermouth for my gin?', { id: 2, sources: ['u40'] });
const vermouth = fact('Dolin; Noilly Prat; Carpano Antica', 'a41', 41, { thread: 2, listed: true, asked: 'Can you suggest a vermouth for my gin?' });

describe('a follow-up question under the thread it continues', () => {
  const stomach = thread("My stomach has been unsettled for weeks and I want meal ideas that are easy to digest.");
  const anxiety = 'Are there any foods or nutrients that can help with stomach cramps and anxiety?';
  const facts = [
    fact('Fatty Fish; Leafy Greens; Dark Chocolate; Yogurt', 'a3', 3, { listed: true, asked: anxiety }),
    fact('Chamomile tea before bed is what I drink most evenings already.', 'u4', 4),
    fact("I think I'll begin with a low-dose probiotic, around 5 billion CFU, and watch how my body responds.", 'u9', 9),
  ];

  it('keeps the head, puts the list under its question, and a later reply naming nothing of it under the head', () => {
    const { under, parts } = askParts(stomach, facts, new Map([[facts[0] as SourcedLine, anxiety]]));
    expect(parts).toHaveLength(1);
    expect(parts[0]?.ask).toBe(anxiety);
    // The reply right after the answer goes with it; the probiotic choice said later does not.
    expect(parts[0]?.facts.map((f) => f.sources[0])).toEqual(['a3', 'u4']);
    expect(under.map((f) => f.sources[0])).toEqual(['u9']);
  });

  it('lays it out as the head, its own lines, then "- Asked:" over the list', () => {
    const layout = new FactLayout({ threads: [stomach, other], kind: 'assist', roleOf });
    const lines = layout.lines([...facts, vermouth]);
    expect(lines.slice(0, 5)).toEqual([
      `### 12 May 2025: ${stomach.text}`,
      "- User: I think I'll begin with a low-dose probiotic, around 5 billion CFU, and watch how my body responds.",
      `- Asked: ${anxiety}`,
      '- Assistant listed: Fatty Fish; Leafy Greens; Dark Chocolate; Yogurt',
      '- User: Chamomile tea before bed is what I drink most evenings already.',
    ]);
    // One head per thread: the follow-up is no head of its own.
    expect(lines.filter((l) => l.startsWith('### '))).toHaveLength(2);
  });

  it('puts a later choice naming an item of the list with the list', () => {
    const mixers = 'Which stand mixer would cope with stiff bread dough?';
    const tart = thread("I want a recipe for a leek and goat cheese tart.");
    const own = [
      fact('Shortcrust pastry with thyme and gruyere is a classic base.', 'a1', 1),
      fact('KitchenAid Classic Plus; Bosch Universal Plus; Kenwood Chef', 'a5', 5, { listed: true, asked: mixers }),
      fact("I'll probably order the KitchenAid Classic Plus.", 'u8', 8),
    ];
    const { under, parts } = askParts(tart, own, new Map([[own[1] as SourcedLine, mixers]]));
    expect(under.map((f) => f.sources[0])).toEqual(['a1']);
    expect(parts[0]?.facts.map((f) => f.sources[0])).toEqual(['a5', 'u8']);
  });

  it('keeps a list on the head topic under the head with no line for its question', () => {
    const immune = thread('What can I do to strengthen my immune system this winter?');
    const list = fact('Citrus fruits; Garlic; Ginger; Spinach', 'a3', 3, { listed: true, asked: 'Which foods or spices strengthen the immune system?' });
    const { under, parts } = askParts(immune, [list], new Map([[list, list.asked as string]]));
    expect(parts).toHaveLength(0);
    expect(under).toEqual([list]);
    // One word in common is not the same topic: the watch repairer asked after the vinyl appraiser.
    const vinyl = thread('Who could value my old vinyl records, an appraiser or a dealer?');
    const watches = 'Who could repair an old pocket watch, a jeweller or a dealer?';
    const repairers = fact("Omega Service Centers; Bob's Watches; WatchRepair.net", 'a5', 5, { listed: true, asked: watches });
    expect(askParts(vinyl, [repairers], new Map([[repairers, watches]])).parts.map((p) => p.ask)).toEqual([watches]);
  });

  it('heads on its own a question asked on a later day, or naming nothing said before it', () => {
    const bike = thread("I need brighter bike lights for riding to work in the dark.");
    const later = 'Can you suggest some checks for the chain and brakes before a long ride?';
    const unrelated = 'Which accounting apps help a freelancer with quarterly taxes?';
    const own = [
      fact("I'll buy the Lezyne Strip Drive Pro for riding to work.", 'u2', 2),
      fact('Tires; Brakes; Chain; Gears', 'a6', 6, { listed: true, asked: later, at: T0 + 2 * 86_400_000 }),
      fact('QuickBooks; Wave; FreshBooks', 'a9', 9, { listed: true, asked: unrelated, at: T0 + 2 * 86_400_000 }),
    ];
    const askedOf = new Map(own.filter((f) => f.asked).map((f) => [f, f.asked as string]));
    const sections = askSections(bike, own, askedOf);
    expect(sections.map((s) => s.line.text)).toEqual([bike.text, later, unrelated]);
    expect(sections[1]?.line.from).toBe(T0 + 2 * 86_400_000);
    // A follow-up leaning on what was said ("these lights") stays under the head, though it names
    // nothing the head names.
    const pointed = 'Are these waterproof enough for heavy rain?';
    const lights = fact('IPX4; IPX6; IPX7', 'a4', 4, { listed: true, asked: pointed });
    expect(askSections(bike, [own[0] as SourcedLine, lights], new Map([[lights, pointed]]))[0]?.asks.map((p) => p.ask)).toEqual([pointed]);
    // So does one naming what the thread's answers said most, though no line shown says it.
    const tennis = thread("How can I make my tennis serve more consistent?", { profile: { footwork: 4, serve: 6 } });
    const drills = 'What about drills for my footwork and agility?';
    const ladder = fact('Ladder drills; Cone drills; Shuttle runs', 'a9', 9, { listed: true, asked: drills });
    const tennisSections = askSections(tennis, [ladder], new Map([[ladder, drills]]));
    expect(tennisSections.map((x) => x.line.text)).toEqual([tennis.text]);
    expect(askSections({ ...tennis, profile: {} }, [ladder], new Map([[ladder, drills]])).map((x) => x.line.text)).toEqual([tennis.text, drills]);
    // Under a head with nothing of its own shown, the first follow-up stays whatever its day; a
    // later day's after it heads its own.
    const launch = thread("I need a social media plan for the launch of our new app.");
    const influencers = 'Which influencer partnerships and paid collaborations suit our launch?';
    const britannica = 'How does an online encyclopedia keep its articles accurate amid fake news?';
    const day2 = T0 + 86_400_000;
    const ways = fact('Sponsored posts; Giveaways; Takeovers', 'a3', 3, { listed: true, asked: influencers, at: day2 - 3_600_000 });
    const checks = fact('Editorial standards; Fact-checking partners; Regular updates', 'a9', 9, { listed: true, asked: britannica, at: day2 + 86_400_000 });
    const launchSections = askSections({ ...launch, to: day2 + 86_400_000 }, [ways, checks], new Map([[ways, influencers], [checks, britannica]]));
    expect(launchSections.map((x) => [x.line.text, x.asks.map((p) => p.ask)])).toEqual([[launch.text, [influencers]], [britannica, []]]);
    // So does one naming too little to tell ("cheaper options").
    const vague = 'Could you suggest some cheaper options?';
    const cheap = fact('Cygolite; Blackburn; NiteRider', 'a4', 4, { listed: true, asked: vague });
    expect(askSections(bike, [own[0] as SourcedLine, cheap], new Map([[cheap, vague]]))[0]?.asks.map((p) => p.ask)).toEqual([vague]);
  });

  it('always traces every fact to one place: under the head or under one question', () => {
    const texts = ['Fatty Fish; Leafy Greens', 'Tires; Brakes; Chain', 'QuickBooks; Wave', 'I ride to work every day.', 'The chain needs oil weekly.'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 30 }), fc.boolean()), { maxLength: 12 }), (specs) => {
        const own = specs.map(([k, m, asked], i) => fact(texts[k] as string, `a${i}`, m, k < 3 ? { listed: true, ...(asked ? { asked: `Question number ${k} about topic ${k}?` } : {}) } : {}));
        const askedOf = new Map(own.filter((f) => f.asked).map((f) => [f, f.asked as string]));
        const sections = askSections(thread('Can you help me plan my cycling commute?'), own, askedOf);
        const placed = sections.flatMap((s) => [...s.facts, ...s.asks.flatMap((p) => p.facts)]);
        expect(placed.length).toBe(own.length);
        expect(new Set(placed).size).toBe(own.length);
      }),
    );
  });
});

describe('a fact that says its head again', () => {
  it('is shown past the head, unless what is left leans on a pointer', () => {
    const head = "I'm looking for indie-folk artists similar to Bon Iver.";
    const f = fact(`${head} I started guitar lessons again after a ten-year break.`, 'u1', 1);
    expect(pastHead(f, head).text).toBe('I started guitar lessons again after a ten-year break.');
    const pointer = fact(`${head} It has been on repeat all week.`, 'u1', 1);
    expect(pastHead(pointer, head)).toBe(pointer);
    expect(pastHead(fact(head, 'u1', 1), head).text).toBe(head);
  });
});

describe('a long answer list', () => {
  it('shows its first items, its label counting them; ten items or fewer whole', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `Item ${i + 1}`).join('; ');
    const ten = Array.from({ length: 10 }, (_, i) => `Item ${i + 1}`).join('; ');
    expect(shownList(twelve).split('; ')).toHaveLength(LIST_SHOWN);
    expect(shownList(ten)).toBe(ten);
    expect(listCount(ten)).toBe('');
    const lines = groupFacts([fact(twelve, 'a1', 1, { listed: true, at: 0 })], roleOf);
    expect(lines).toEqual([`- Assistant listed ${LIST_SHOWN} of 12: ${shownList(twelve)}`]);
    // The panel counts it sent, as its items shown.
    expect(sentPart(lines.join('\n'), twelve)).toBe(shownList(twelve));
  });
});

describe('a thread whose first request comes after the message that opened it', () => {
  it('is headed by that opening message', () => {
    const at = (i: number): number => T0 + i * 60_000;
    let n = 0;
    const msg = (role: 'user' | 'assistant', content: string, i: number): ChatMessage => ({ id: `m${n++}`, role, content, createdAt: at(i) });
    const chat = [
      msg('user', "I'm building my first gaming PC and I want a graphics card that can drive a 144Hz monitor.", 0),
      msg('assistant', 'For 144Hz at 1440p the Radeon RX 6800 XT and the GeForce RTX 3070 are both strong choices.', 1),
      msg('user', 'Is the Razer Basilisk V3 a good mouse for gaming?', 2),
      msg('assistant', 'The Razer Basilisk V3 is a wired mouse with a 26,000 DPI sensor and eleven buttons.', 3),
    ];
    const { threads } = extractThreads(chat, sentencesOf(chat), 'assist', [], 1);
    expect(threads[0]?.text).toBe("I'm building my first gaming PC and I want a graphics card that can drive a 144Hz monitor.");
    // Not by an opening in which the user does not speak of themselves (a pasted statement).
    const pasted = [msg('user', 'Harbour Link is part of the Harbour platform for small ferry operators.', 0), ...chat.slice(1)];
    expect(extractThreads(pasted, sentencesOf(pasted), 'assist', [], 1).threads[0]?.text).toBe('Is the Razer Basilisk V3 a good mouse for gaming?');
  });
});

describe('a compaction of an assistant chat with follow-ups', () => {
  it('traces every line to the removed text and stays within budget', () => {
    let n = 0;
    const msg = (role: 'user' | 'assistant', content: string, d: number, i: number): ChatMessage => ({ id: `c${n++}`, role, content, createdAt: T0 + d * 86_400_000 + i * 60_000 });
    const chat = [
      msg('user', "My stomach has been unsettled for weeks and I want meal ideas that are easy to digest.", 0, 0),
      msg('assistant', 'Here are some gentle meals:\n1. **Oatmeal with banana** - soft and soothing\n2. **Rice congee** - easy on the gut\n3. **Baked salmon** - light protein', 0, 1),
      msg('user', 'Are there any foods or nutrients that can help with stomach cramps and anxiety?', 0, 2),
      msg('assistant', 'Some that may help:\n1. **Fatty fish** - omega-3\n2. **Leafy greens** - magnesium\n3. **Dark chocolate** - in moderation', 0, 3),
      msg('user', 'Which probiotic supplements are gentle enough for a sensitive gut?', 0, 3.5),
      msg('assistant', 'Culturelle Digestive Daily and Align are gentle; start with a low dose and take them with breakfast.', 0, 3.7),
      msg('user', "I think I'll begin with a low-dose probiotic, around 5 billion CFU, and watch how my body responds.", 0, 4),
      msg('assistant', 'Starting low is sensible; increase after two weeks if you feel fine.', 0, 5),
      msg('user', 'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?', 3, 0),
      msg('assistant', 'Options:\n1. **Gardena Micro-Drip** - 60 euros\n2. **Rain Bird** - 45 euros\n3. **Hozelock** - 50 euros', 3, 1),
      msg('user', 'I bought the Gardena kit yesterday and laid the supply pipe along the two raised beds.', 3, 2),
      msg('assistant', 'Place one dripper per tomato plant, ten centimetres from the stem, and run it twenty minutes each morning.', 3, 3),
      ...['Lisbon', 'Kyoto', 'Oslo', 'Quebec', 'Seville', 'Tallinn'].flatMap((city, k) => [
        msg('user', `I'm planning a weekend trip to ${city} in October and I need a hotel near the old town for two nights.`, 5 + k, 0),
        msg('assistant', `For ${city} these are well placed:\n1. **Hotel ${city} Centro** - 120 euros a night, breakfast included\n2. **Casa ${city} Velha** - 95 euros, a quiet courtyard\n3. **${city} Harbour Inn** - 140 euros, views over the water\nBook early: October is busy in ${city} because of the autumn festival, and rooms near the old town sell out weeks ahead.`, 5 + k, 1),
        msg('user', `I think I'll book the Casa ${city} Velha, my partner loves quiet courtyards and we both prefer walking everywhere.`, 5 + k, 2),
        msg('assistant', `Casa ${city} Velha is a good pick; ask for a room facing the courtyard and check whether the breakfast starts early enough for your walking tours.`, 5 + k, 3),
      ]),
      msg('user', 'Thanks!', 3, 4),
      msg('assistant', 'You are welcome.', 3, 5),
    ];
    const r = ok(compact(chat, { budgetTokens: 1000, cut: 36, model: 'gpt-4o', now: 1 }));
    const removed = chat.slice(0, 36).map((m) => m.content).join('\n');
    for (const line of r.block.split('\n')) {
      const m = /^- Asked(?:, [^:]+)?: (.*)$/.exec(line);
      if (m) expect(removed).toContain(m[1]);
    }
    expect(r.block).toContain("### 12 May 2025: My stomach has been unsettled for weeks");
    expect(r.block).not.toMatch(/^### .*anxiety/m);
    expect(r.block).toMatch(/^- Asked: Are there any foods or nutrients that can help with stomach cramps and anxiety\?$/m);
    // The probiotic reply said after another exchange stays under the head, not under that question.
    const lines = r.block.split('\n');
    const cfu = lines.findIndex((l) => l.includes('low-dose probiotic'));
    if (cfu >= 0) expect(cfu).toBeLessThan(lines.findIndex((l) => l.startsWith('- Asked: Are there any foods')));
    expect(ok(compact(chat, { budgetTokens: 1000, cut: 36, model: 'gpt-4o', now: 1 })).block).toBe(r.block);
  });
});
