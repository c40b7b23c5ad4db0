// With an assistant, a thread's outcome in the user's words (issue 29): the option the user chose
// is carried under the head of the thread whose options it picks from, after them, and a later
// choice in the thread is the one that stands. Hand-written conversations only.
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { confirmsAnswer, latestChoices, userConfirms } from '../../src/core/thread-outcomes';
import { usableSentences } from '../../src/core/fact-sentences';
import { asksForMore, listedAnswers } from '../../src/core/listed-answers';
import type { SourcedLine, ThreadLine } from '../../src/core/record';
import { FactLayout, threadHead, withoutSegue } from '../../src/core/thread-format';
import { ok } from './compacted';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 4, 12, 9, 0);
let seq = 0;
const msg = (role: 'user' | 'assistant', content: string, at: number): ChatMessage => ({ id: `o${seq++}`, role, content, createdAt: at });

/** Three sessions with an assistant: a bedside lamp's bulb (chosen at the end), a bike trip, a
 * bread recipe; the user tells plenty about themselves on the way. */
export function bulbChat(): ChatMessage[] {
  seq = 0;
  const at = (d: number, i: number): number => T0 + d * DAY + i * 60_000;
  return [
    msg('user', "I'm setting up a reading nook in my bedroom with the Adesso floor lamp I ordered last week. What's the difference between a 2700K and a 3000K LED bulb for reading in bed?", at(0, 0)),
    msg('assistant', 'Both are warm white, but they feel different:\n1. **2700K** - the warmest, close to an old incandescent bulb\n2. **3000K** - a little crisper and whiter\n3. **Brightness** - the same lumens look brighter at 3000K\n4. **Mood** - 2700K is calmer for winding down at night', at(0, 1)),
    msg('user', 'My old bedroom lamp had a harsh 5000K daylight bulb that kept me awake, and my partner Noor reads in bed every night too.', at(0, 2)),
    msg('assistant', 'Then a warmer bulb will help you both wind down; a dimmable one lets Noor read while you sleep.', at(0, 3)),
    msg('user', 'I think I\'ll go with the 2700K bulb.', at(0, 4)),
    msg('assistant', 'Good choice: the 2700K bulb gives the cosy light a reading nook needs.', at(0, 5)),
    msg('user', 'Can you plan a two-day cycling trip from Utrecht to Amsterdam along the Vecht river?', at(3, 0)),
    msg('assistant', 'Day one: ride from Utrecht to Breukelen along the Vecht, 25 km, with a stop at Slot Zuylen. Day two: ride on through Loenen and Weesp to Amsterdam, 35 km.', at(3, 1)),
    msg('user', 'I rode my grandfather\'s old Gazelle bike in the Elfstedentocht tour in 2019 and finished it in eleven hours.', at(3, 2)),
    msg('assistant', 'Then 60 km over two days will be easy for you.', at(3, 3)),
    msg('user', 'What is a simple sourdough bread recipe for a beginner with a Dutch oven?', at(6, 0)),
    msg('assistant', 'Mix 500 g flour, 350 g water, 100 g starter and 10 g salt; fold four times over two hours, proof overnight in the fridge, and bake at 250 °C in the Dutch oven for 40 minutes.', at(6, 1)),
    msg('user', 'Thanks, I will bake it on Saturday.', at(6, 2)),
    msg('assistant', 'Enjoy the bread!', at(6, 3)),
    ...extraSessions(at),
  ];
}

/** Sessions of other topics with long answers, so the removed part is larger than the block. */
function extraSessions(at: (d: number, i: number) => number): ChatMessage[] {
  const topics = [
    ['How do I repot a root-bound monstera without hurting its aerial roots?', 'monstera', 'terracotta pot', 'aerial roots'],
    ['Which laptop suits video editing on a budget of 1200 euros?', 'laptop', 'Ryzen processor', 'colour-accurate screen'],
    ['How should I prepare for a job interview at a logistics company in Rotterdam?', 'interview', 'warehouse software', 'shift planning'],
    ['What should I check before buying a used electric car with 80,000 km on it?', 'electric car', 'battery health report', 'charging cable'],
  ];
  return topics.flatMap(([ask, a, b, c], k) => [
    msg('user', ask as string, at(8 + k, 0)),
    msg('assistant', [
      `Start with the ${a}: look at it closely before anything else, since most problems with the ${a} show early and cost little to fix then.`,
      `The ${b} matters next; compare two or three options of the ${b} side by side, note their prices, and read the reviews of people who used them for a year.`,
      `Keep the ${c} in mind as well, because the ${c} decides how well the whole thing works in daily use over the coming months.`,
      `Write down what you find about the ${a}, the ${b} and the ${c} in one note, so you can decide calmly at home rather than on the spot.`,
      `If anything about the ${b} or the ${c} feels unclear, ask a friend who has done it before, or come back here and we can go through it together step by step.`,
    ].join(' '), at(8 + k, 1)),
    msg('user', `Thanks, that makes the ${a} much clearer for me.`, at(8 + k, 2)),
    msg('assistant', `You are welcome; good luck with the ${a}.`, at(8 + k, 3)),
  ]);
}

describe('a thread carried with its outcome', () => {
  it('lays the choice out under the thread whose options it picks from, after them, not about the user', () => {
    const chat = bulbChat();
    const r = ok(compact(chat, { budgetTokens: 1000, cut: 28, model: 'gpt-4o', now: 1 }));
    const lines = r.block.split('\n');
    const choice = lines.findIndex((l) => l.includes("I think I'll go with the 2700K bulb."));
    expect(choice).toBeGreaterThan(0);
    // Its head is the bulb thread's, and the options stand above it under the same head.
    const head = lines.slice(0, choice).reverse().find((l) => l.startsWith('### '));
    expect(head).toMatch(/2700K and a 3000K/);
    expect(head).not.toMatch(/About the user/);
    const headAt = lines.indexOf(head as string);
    expect(lines.slice(headAt, choice).some((l) => /listed: 2700K; 3000K/.test(l))).toBe(true);
  });

  it('never says the list again in a sentence of the answer that opens on one of its items', () => {
    const r = ok(compact(bulbChat(), { budgetTokens: 1000, cut: 28, model: 'gpt-4o', now: 1 }));
    expect(r.block).toMatch(/listed: 2700K; 3000K; Brightness; Mood/);
    expect(r.block).not.toMatch(/^- Assistant: \*\*(?:2700K|3000K|Brightness|Mood)\*\*/m);
  });

  it('takes the latest choice of each thread, never a question', () => {
    seq = 0;
    const msgs = [
      msg('user', "I'll go with a warm white LED bulb for the bedroom lamp.", T0),
      msg('assistant', 'Warm white suits a bedroom. 2700K or 3000K?', T0 + 1),
      msg('user', "I think I'll go with the 2700K bulb. Should I go with a dimmable one too?", T0 + 2),
      msg('user', "I've decided on the Gazelle bike for the trip.", T0 + 3),
    ];
    const sentences = sentencesOf(msgs);
    const threadOf = new Map([['o0', 1], ['o1', 1], ['o2', 1], ['o3', 2]]);
    const texts = [...latestChoices(sentences, threadOf)].map((s) => s.text);
    expect(texts.sort()).toEqual(["I think I'll go with the 2700K bulb.", "I've decided on the Gazelle bike for the trip."]);
  });
});

describe("the assistant's yes to what the user asked it to check", () => {
  it("takes an answer opening on a yes that names what it confirms as the thread's outcome, after a guess list", () => {
    seq = 0;
    const msgs = [
      msg('user', 'I named a character Mira Lent. Can you guess the word it is an anagram of?', T0),
      msg('assistant', 'It could be one of these:\n1. "Terminal"\n2. "Tramline"\n3. "Lament"', T0 + 1),
      msg('user', "I think I used the word 'interval', does that fit?", T0 + 2),
      msg('assistant', 'Yes, "Mira Lent" is indeed an anagram of the word "interval" once you swap two letters. Clever name!', T0 + 3),
      msg('user', 'Is the Rijksmuseum open on Mondays?', T0 + 4),
      msg('assistant', "Yes, I'm familiar with its opening hours: it opens every day of the week.", T0 + 5),
    ];
    const threadOf = new Map(msgs.map((m, i) => [m.id, i < 4 ? 1 : 2]));
    const texts = [...latestChoices(sentencesOf(msgs), threadOf)].map((s) => s.text);
    // A yes that only agrees ("Yes, I'm familiar …") says no outcome.
    expect(texts).toEqual(['Yes, "Mira Lent" is indeed an anagram of the word "interval" once you swap two letters.']);
  });

  it("takes the user's naming of the right guess as the outcome, though it opens on \"it\"", () => {
    seq = 0;
    const msgs = [
      msg('user', 'Which painter shows his own reflection in a tiny mirror?', T0),
      msg('assistant', 'It could be one of these:\n1. Jan van Eyck\n2. Giovanni Bellini\n3. Diego Velázquez', T0 + 1),
      msg('user', 'ok great! Yes it is the Night Watch by Rembrandt.', T0 + 2),
    ];
    const ss = sentencesOf(msgs);
    expect([...latestChoices(ss, new Map(msgs.map((m) => [m.id, 1])))].map((s) => s.text)).toEqual(['Yes it is the Night Watch by Rembrandt.']);
    // Kept as a fact though it opens on "it"; "Yes it is the one you said" names nothing.
    expect(usableSentences(ss).usable.map((s) => s.text)).toContain('Yes it is the Night Watch by Rembrandt.');
    expect(userConfirms('Yes it is the one you said.')).toBe(false);
    expect(userConfirms("Yes, it's Velázquez after all.")).toBe(true);
  });

  it('never takes a yes that leans on a pointer, nor one after no question', () => {
    for (const t of ['Yes, it is indeed the right word.', 'Yes, that is correct.']) expect(confirmsAnswer(t), t).toBe(false);
    expect(confirmsAnswer('Correct, the Night Watch shows the painter in its mirror.')).toBe(true);
    seq = 0;
    const msgs = [msg('user', 'I painted the Night Watch copy last week.', T0), msg('assistant', 'Yes, the Night Watch is indeed a fine choice to copy.', T0 + 1)];
    expect(latestChoices(sentencesOf(msgs), new Map(msgs.map((m) => [m.id, 1]))).size).toBe(0);
  });
});

describe('a list headed by what it answers, a choice by what it chose from', () => {
  it('takes what the user said they were about to do as the request of a list after a question too long to head it', () => {
    seq = 0;
    const chat = [
      msg('user', "Now, I'm thinking of scheduling a maintenance check for my road bike at the local bike shop. Do you know what kind of things they usually check during a standard maintenance check, and are there any specific things I should ask them to look at?", T0),
      msg('assistant', 'A standard check covers:\n1. **Tires** - wear and pressure\n2. **Brakes** - pads and cables\n3. **Chain** - wear and lubrication\n4. **Gears** - shifting and derailleurs', T0 + 1),
    ];
    const [answer] = listedAnswers(chat, sentencesOf(chat));
    expect(answer?.asked).toBe("Now, I'm thinking of scheduling a maintenance check for my road bike at the local bike shop.");
  });

  it("takes the user's plan before a question that names its subject only by a pointer, never a plan said after it", () => {
    seq = 0;
    const list = '1. **T-fal Easy Care** - non-stick, 50 dollars\n2. **Calphalon Classic** - stainless, 90 dollars\n3. **Rachael Ray Cucina** - non-stick, 70 dollars';
    const chat = [
      msg('user', "I'm planning to buy some new cookware online and I'm on a budget. Can you recommend some affordable options?", T0),
      msg('assistant', list, T0 + 1),
      msg('user', "Which stores sell the Calphalon Classic set near Boston? I'm thinking of going there on Saturday.", T0 + 2),
      msg('assistant', list, T0 + 3),
    ];
    const answers = listedAnswers(chat, sentencesOf(chat));
    expect(answers[0]?.asked).toBe("I'm planning to buy some new cookware online and I'm on a budget.");
    expect(answers[1]?.asked).toBe('Which stores sell the Calphalon Classic set near Boston?');
  });

  it('keeps the head a choice was made under when a later list of the thread answers another question', () => {
    const thread: ThreadLine = { id: 1, text: "I'm looking to get some new bike lights for my morning commutes.", head: 'request', sources: ['u1'], at: 0, from: 0, to: 0, score: 1, round: 1 };
    const layout = new FactLayout({ threads: [thread, { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'] }], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const seqOf = (message: number): number => 1e9 + message * 1e4;
    const facts: SourcedLine[] = [
      { text: "I think I'll go with the Lezyne Strip Drive Pro.", sources: ['u3'], at: 0, score: 1, round: 1, seq: seqOf(3), thread: 1, about: true },
      { text: 'Tires; Brakes; Chain; Gears', sources: ['a12'], at: 0, score: 1, round: 1, seq: seqOf(12), thread: 1, listed: true, asked: "Now, I'm thinking of scheduling a maintenance check for my road bike." },
      { text: 'Dolin; Noilly Prat; Carpano Antica', sources: ['a20'], at: 0, score: 1, round: 1, seq: seqOf(20), thread: 2, listed: true, asked: 'Which vermouth brands pair with a London dry gin?' },
    ];
    const lines = layout.lines(facts);
    expect(lines[0]).toBe("### Asked: I'm looking to get some new bike lights for my morning commutes.");
    expect(lines[1]).toBe("- User: I think I'll go with the Lezyne Strip Drive Pro.");
    // A list on its head's topic stands under it: the vermouths under the request for a vermouth.
    const vermouth = lines.indexOf('### Asked: Can you suggest a vermouth for my gin?');
    expect(vermouth).toBeGreaterThan(1);
    expect(lines[vermouth + 1]).toBe('- Assistant listed: Dolin; Noilly Prat; Carpano Antica');
  });
});

describe('what the user takes up of an answer', () => {
  const thread: ThreadLine = { id: 1, text: 'Can you recommend a hotel on the Las Vegas Strip with a great gym?', head: 'request', sources: ['u1'], at: 0, from: 0, to: 0, score: 1, round: 1 };
  const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'] };
  const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
  const line = (text: string, id: string, about = true, t = 1): SourcedLine => ({ text, sources: [id], at: 0, score: 1, round: 1, thread: t, ...(about ? { about: true } : {}) });
  const vermouth = line('Dolin; Noilly Prat; Carpano Antica', 'a9', false, 2);

  it('lays a line naming what the user will book or check out under its thread, not under About the user', () => {
    const lines = layout.lines([line('The Cosmopolitan; Wynn Las Vegas; Aria', 'a2', false), line("I think I'll book a Strip View Room with a king-size bed.", 'u3'), line('I have a gym membership at home in Denver.', 'u4'), vermouth]);
    const about = lines.indexOf('### About the user:');
    const head = lines.findIndex((l) => l.startsWith('### Asked:') || l.includes('Las Vegas Strip'));
    expect(about).toBeGreaterThanOrEqual(0);
    expect(head).toBeGreaterThan(about);
    expect(lines.findIndex((l) => l.includes('Strip View Room'))).toBeGreaterThan(head);
  });

  it('leaves a line that names nothing it takes up under About the user', () => {
    const lines = layout.lines([line('The Cosmopolitan; Wynn Las Vegas; Aria', 'a2', false), line("I'll check out those options, thanks.", 'u3'), vermouth]);
    expect(lines.findIndex((l) => l.includes('those options'))).toBeLessThan(lines.findIndex((l) => l.includes('Las Vegas Strip')));
  });
});

describe('a list is not headed by a question asking for more of an answer', () => {
  it('reads questions asking for more as naming nothing, and questions naming their subject as heads', () => {
    for (const t of ['Are there any other hidden gems that you can recommend?', 'how many more unique forms do you have?', "What's the most popular book among these recommendations?", 'Can you tell me more about the hotel?', 'the painter lived before Rembrandt. can you try again?'])
      expect(asksForMore(t), t).toBe(true);
    for (const t of ['What are some other wheel options that offer similar performance at a lower price point?', 'Can you recommend some good harmonica brands for beginners?', 'Can you suggest some websites or stores where I can find these types of gifts?'])
      expect(asksForMore(t), t).toBe(false);
  });

  it("takes the user's plan before it as the list's request instead", () => {
    seq = 0;
    const chat = [
      msg('user', "I'm looking to redecorate my living room with vintage pieces. Do you have any suggestions on how to find these pieces?", T0),
      msg('assistant', 'Try these:\n1. **Thrift stores** - cheap and varied\n2. **Estate sales** - whole rooms at once\n3. **Flea markets** - bargain on price', T0 + 1),
    ];
    const [answer] = listedAnswers(chat, sentencesOf(chat));
    expect(answer?.asked).toBe("I'm looking to redecorate my living room with vintage pieces.");
  });
});

describe("a later day's list under its own question", () => {
  it("heads a list asked on a later day by its question, the earlier lines staying under the thread's head", () => {
    const day = (d: number): number => T0 + d * DAY;
    const thread: ThreadLine = { id: 1, text: "I'm looking to get some new bike lights for my morning commutes.", head: 'request', sources: ['u1'], at: day(0), from: day(0), to: day(2), score: 1, round: 1 };
    const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'], from: day(3), to: day(3) };
    const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const seqOf = (message: number): number => 1e9 + message * 1e4;
    const facts: SourcedLine[] = [
      { text: 'Lezyne Strip Drive Pro; Cygolite Hotrod 50; Bontrager Ion 200', sources: ['a2'], at: day(0), score: 1, round: 1, seq: seqOf(2), thread: 1, listed: true, asked: "I'm looking to get some new bike lights for my morning commutes." },
      { text: "I think I'll go with the Lezyne Strip Drive Pro.", sources: ['u3'], at: day(0), score: 1, round: 1, seq: seqOf(3), thread: 1, about: true },
      { text: 'Tires; Brakes; Chain; Gears', sources: ['a12'], at: day(2), score: 1, round: 1, seq: seqOf(12), thread: 1, listed: true, asked: "Now, I'm thinking of scheduling a maintenance check for my road bike." },
      { text: 'Dolin; Noilly Prat; Carpano Antica', sources: ['a20'], at: day(3), score: 1, round: 1, seq: seqOf(20), thread: 2, listed: true },
    ];
    const lines = layout.lines(facts);
    const lights = lines.findIndex((l) => l.endsWith('bike lights for my morning commutes.'));
    const check = lines.findIndex((l) => l.endsWith("I'm thinking of scheduling a maintenance check for my road bike."));
    expect(lines[lights]).toBe("### 12 May 2025: I'm looking to get some new bike lights for my morning commutes.");
    expect(check).toBeGreaterThan(lights);
    expect(lines[check]).toBe("### 14 May 2025: I'm thinking of scheduling a maintenance check for my road bike.");
    expect(lines.findIndex((l) => l.includes('go with the Lezyne'))).toBeLessThan(check);
    expect(lines[check + 1]).toContain('Tires; Brakes; Chain; Gears');
  });
});

describe("a same day's list on another topic under its own question", () => {
  const thread: ThreadLine = { id: 1, text: 'Do you have any ideas for themes that would make the retirement party special?', head: 'request', sources: ['u1'], at: T0, from: T0, to: T0, score: 1, round: 1 };
  const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'], from: T0 + DAY, to: T0 + DAY };
  const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
  const seqOf = (message: number): number => 1e9 + message * 1e4;
  const fact = (text: string, id: string, m: number, extra: Partial<SourcedLine> = {}): SourcedLine => ({ text, sources: [id], at: T0, score: 1, round: 1, seq: seqOf(m), thread: 1, ...extra });
  const vermouth = fact('Dolin; Noilly Prat; Carpano Antica', 'a20', 20, { thread: 2, listed: true, at: T0 + DAY });

  it('heads a list on another topic by its question, the choice staying under the theme it chose', () => {
    const lines = layout.lines([
      fact("I think I'll go with a family celebration theme.", 'u3', 3, { about: true }),
      fact('Ask for referrals; Online search; Check their portfolio', 'a5', 5, { listed: true, asked: 'Do you have any recommendations for photographers near Utrecht?' }),
      vermouth,
    ]);
    const theme = lines.findIndex((l) => l.includes('themes that would make the retirement party special'));
    const photos = lines.indexOf('### 12 May 2025: Do you have any recommendations for photographers near Utrecht?');
    expect(theme).toBeGreaterThanOrEqual(0);
    expect(photos).toBeGreaterThan(theme);
    expect(lines.findIndex((l) => l.includes('family celebration theme'))).toBeLessThan(photos);
    expect(lines[photos + 1]).toContain('Ask for referrals');
  });

  it('keeps a follow-up on the same topic under the head when a list shown there answers the head', () => {
    const lines = layout.lines([
      fact('Garden party; Decades night; Travel theme', 'a2', 2, { listed: true, asked: 'Do you have any ideas for themes that would make the retirement party special?' }),
      fact("I think I'll go with a garden party theme.", 'u3', 3, { about: true }),
      fact('Bunting; Lanterns; Photo wall', 'a5', 5, { listed: true, asked: 'What decorations would suit a garden party theme for the retirement party?' }),
      vermouth,
    ]);
    expect(lines.filter((l) => l.startsWith('### ')).length).toBe(2);
  });
});

describe('the lines said under a head before a list answering another question', () => {
  it('stay under that head, the list going under its own question', () => {
    const thread: ThreadLine = { id: 1, text: 'Do you know any reputable music appraisers I could reach out to?', head: 'request', sources: ['u1'], at: T0, from: T0, to: T0, score: 1, round: 1 };
    const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'], from: T0 + DAY, to: T0 + DAY };
    const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const seqOf = (message: number): number => 1e9 + message * 1e4;
    const lines = layout.lines([
      { text: "A luthier can mend your grandfather's 1950s Gibson guitar before it is appraised.", sources: ['a2'], at: T0, score: 1, round: 1, seq: seqOf(2), thread: 1 },
      { text: "Omega Service Centers; Bob's Watches; WatchRepair.net", sources: ['a5'], at: T0, score: 1, round: 1, seq: seqOf(5), thread: 1, listed: true, asked: 'Do you know any reputable watch repair services or collectors I could reach out to?' },
      { text: 'Dolin; Noilly Prat; Carpano Antica', sources: ['a20'], at: T0 + DAY, score: 1, round: 1, seq: seqOf(20), thread: 2, listed: true },
    ]);
    const guitar = lines.findIndex((l) => l.includes('Gibson guitar'));
    // (Its question names nothing the head or the lines under it name: a topic of its own.)
    const watch = lines.indexOf('### 12 May 2025: Do you know any reputable watch repair services or collectors I could reach out to?');
    expect(lines.slice(0, guitar).reverse().find((l) => l.startsWith('### '))).toContain('music appraisers');
    expect(watch).toBeGreaterThan(guitar);
    expect(lines[watch + 1]).toContain("Bob's Watches");
  });
});

describe('the spread with an assistant', () => {
  it("takes the latest thread's best line first: the kept messages go on with it", () => {
    const day = (d: number): number => T0 + d * DAY;
    const mk = (id: number, d: number, text: string): ThreadLine => ({ id, text, head: 'request', sources: [`u${id}`], at: day(d), from: day(d), to: day(d), score: 1, round: 1 });
    const threads = [mk(1, 0, 'Can you recommend sourdough books?'), mk(2, 1, 'Which bike lights suit a commute?'), mk(3, 2, 'How did Queen Juliana spend her retirement?')];
    const layout = new FactLayout({ threads, kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const f = (text: string, id: string, t: number, score: number, listed = false): SourcedLine => ({ text, sources: [id], at: day(t - 1), score, round: 1, thread: t, ...(listed ? { listed: true } : {}) });
    const ranked = [f('Flour Water Salt Yeast; Tartine Bread; The Perfect Loaf', 'a1', 1, 3, true), f('Lezyne Strip Drive; Cygolite Hotrod; Bontrager Ion', 'a2', 2, 2.5, true), f('Queen Juliana moved to Soestdijk Palace and painted there.', 'a3', 3, 1)];
    expect(layout.spread(ranked).map((x) => x.thread)).toEqual([3, 1, 2]);
  });
});

describe('a line that is its thread\'s head', () => {
  it('is said once, by the head, not again under About the user', () => {
    const thread: ThreadLine = { id: 1, text: "I'm planning to buy a cast-iron pan online and I'm on a budget.", head: 'request', sources: ['u1'], at: 0, from: 0, to: 0, score: 1, round: 1 };
    const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'] };
    const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const line = (text: string, id: string, t: number, extra: Partial<SourcedLine> = {}): SourcedLine => ({ text, sources: [id], at: 0, score: 1, round: 1, thread: t, ...extra });
    const lines = layout.lines([
      line("I'm planning to buy a cast-iron pan online and I'm on a budget.", 'u1', 1, { about: true }),
      line('I cook for my two teenage sons every evening.', 'u2', 1, { about: true }),
      line('Dolin; Noilly Prat; Carpano Antica', 'a9', 2, { listed: true }),
    ]);
    expect(lines.filter((l) => l.includes('cast-iron pan'))).toEqual(["### Asked: I'm planning to buy a cast-iron pan online and I'm on a budget."]);
    expect(lines).toContain('- I cook for my two teenage sons every evening.');
  });

  it("is said once when a list's question heads the thread", () => {
    const thread: ThreadLine = { id: 1, text: "I'm looking to increase my social media presence.", head: 'request', sources: ['u1'], at: 0, from: 0, to: 0, score: 1, round: 1 };
    const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'] };
    const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const plan = "I'm planning to buy a cast-iron pan online and I'm on a budget.";
    const lines = layout.lines([
      { text: plan, sources: ['u4'], at: 0, score: 1, round: 1, seq: 1e9 + 4e4, thread: 1, about: true },
      { text: 'Lodge; Victoria; Staub', sources: ['a5'], at: 0, score: 1, round: 1, seq: 1e9 + 5e4, thread: 1, listed: true, asked: plan },
      { text: 'Dolin; Noilly Prat; Carpano Antica', sources: ['a9'], at: 0, score: 1, round: 1, seq: 1e9 + 9e4, thread: 2, listed: true },
    ]);
    expect(lines.filter((l) => l.includes('cast-iron pan'))).toEqual([`### Asked: ${plan}`]);
  });
});

describe('a request head without the words the user moved on by', () => {
  it('drops a segue and capitalises what is left, never down to a fragment', () => {
    expect(withoutSegue('Speaking of winter, do you have any recommendations for a good winter coat cleaner?')).toBe('Do you have any recommendations for a good winter coat cleaner?');
    expect(withoutSegue("By the way, have you heard about any good car insurance companies?")).toBe('Have you heard about any good car insurance companies?');
    expect(withoutSegue("Anyway, back to my question, are there any specific foods that can boost my immune system?")).toBe('Are there any specific foods that can boost my immune system?');
    expect(withoutSegue("Back to my battery issue... do you think my laptop's battery needs to be replaced?")).toBe("Do you think my laptop's battery needs to be replaced?");
    expect(withoutSegue('So, what now?')).toBe('So, what now?');
    expect(withoutSegue('Now is a good time to plan my garden beds.')).toBe('Now is a good time to plan my garden beds.');
  });

  it('heads a thread by its request without the segue', () => {
    const t: ThreadLine = { id: 1, text: 'By the way, do you have any recipe ideas for using up fresh carrots?', head: 'request', sources: ['u1'], at: T0, from: T0, to: T0, score: 1, round: 1 };
    expect(threadHead(t)).toBe('### 12 May 2025: Do you have any recipe ideas for using up fresh carrots?');
    expect(threadHead({ ...t, head: 'phrases', text: 'Now, carrots' })).toBe('### 12 May 2025: Now, carrots');
  });
});
