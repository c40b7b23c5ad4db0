// What an assistant's answer list answers, and how it is read (issue 29): the list sits under the
// question it answers. Hand-written conversations only.
import { describe, expect, it } from 'vitest';
import { itemHead, listHeads } from '../../src/core/answer-shape';
import { sentencesOf } from '../../src/core/extract-sentences';
import { asksForMore, leansOnPointer, listedAnswers } from '../../src/core/listed-answers';
import type { ChatMessage } from '../../src/core/messages';
import type { SourcedLine, ThreadLine } from '../../src/core/record';
import { FactLayout } from '../../src/core/thread-format';

const T0 = Date.UTC(2025, 4, 12, 9, 0);
let seq = 0;
const msg = (role: 'user' | 'assistant', content: string, at: number): ChatMessage => ({ id: `q${seq++}`, role, content, createdAt: at });

describe('a request leaning on a pointer at its end', () => {
  it("takes the user's sentence it points at as the list's request, not the plan the message opened with", () => {
    seq = 0;
    const chat = [
      msg('user', "I'm planning a hiking week in Slovenia and I'm looking for ideas on what to see. I've heard Lake Bohinj is beautiful, but I'm not sure how to get there from Ljubljana. Can you help me with that?", T0),
      msg('assistant', 'There are several ways:\n1. **Bus** - hourly from the main station\n2. **Car rental** - about an hour and a half\n3. **Guided tour** - day trips with a driver', T0 + 1),
    ];
    const [answer] = listedAnswers(chat, sentencesOf(chat));
    expect(answer?.asked).toBe("I've heard Lake Bohinj is beautiful, but I'm not sure how to get there from Ljubljana.");
  });

  it('keeps a question that names its subject, and the plan when the sentence before leans back itself', () => {
    seq = 0;
    const chat = [
      msg('user', "I'm thinking of learning the cello this winter. It sounds hard. Can you help me with that?", T0),
      msg('assistant', 'Start here:\n1. **Rent a cello** - before you buy one\n2. **Find a teacher** - weekly lessons\n3. **Practise daily** - twenty minutes', T0 + 1),
      msg('user', 'Which cello method books suit an adult beginner? I want to help myself with that.', T0 + 2),
      msg('assistant', 'Try these:\n1. **Suzuki Cello School**\n2. **Essential Elements for Strings**\n3. **Cello Time Joggers**', T0 + 3),
    ];
    const answers = listedAnswers(chat, sentencesOf(chat));
    expect(answers[0]?.asked).toBe("I'm thinking of learning the cello this winter.");
    expect(answers[1]?.asked).toBe('Which cello method books suit an adult beginner?');
  });
});

describe('a question leaning on a pointer', () => {
  it('asks of one or ends on one while naming little', () => {
    for (const t of ["Don't they worry about what their kids will inherit?", 'Is it worth the money?', 'Can you help me with that?', 'Any tips on this?'])
      expect(leansOnPointer(t), t).toBe(true);
    for (const t of ["Can you tell me more about the different kinds of climbing ropes and how to store them safely?", 'Which trains run from Ljubljana to Bled?'])
      expect(leansOnPointer(t), t).toBe(false);
  });

  it('heads no list: the sentence before it does, below the plan the user opened with unless it says what they do not know', () => {
    seq = 0;
    const chat = [
      msg('user', "I'm thinking about getting an electric car and I'd like to know more about running costs. I see that the tyres cost about the same as my old Civic's. Is that normal?", T0),
      msg('assistant', 'Typical yearly costs:\n1. **Tyres** - 400 dollars\n2. **Brakes** - 250 dollars\n3. **Insurance** - 900 dollars', T0 + 1),
      msg('user', "I can't see why some cities still build so few bike lanes. Don't they worry about what their kids will inherit?", T0 + 2),
      msg('assistant', 'Several reasons:\n1. **Different priorities**\n2. **Economic incentives**\n3. **Political factors**', T0 + 3),
    ];
    const answers = listedAnswers(chat, sentencesOf(chat));
    expect(answers[0]?.asked).toBe("I'm thinking about getting an electric car and I'd like to know more about running costs.");
    expect(answers[1]?.asked).toBe("I can't see why some cities still build so few bike lanes.");
  });
});

describe('a question asking more about a name', () => {
  it('names its subject: it heads its list', () => {
    expect(asksForMore('Can you tell me a bit more about Parks and Recreation?')).toBe(false);
    expect(asksForMore('Can you tell me more about the hotel?')).toBe(true);
    expect(asksForMore('Can you tell me more about it?')).toBe(true);
  });
});

describe("a template's placeholder in a list", () => {
  it('is no item head', () => {
    expect(itemHead('[Specific Practice Area]')).toBeNull();
    expect(itemHead('Legal Research and Writing')).toBe('Legal Research and Writing');
    expect(listHeads('Skills:\n* Legal Research and Writing\n* [Specific Practice Area]\n* Course Design\n* Public Speaking')).toEqual(['Legal Research and Writing', 'Course Design', 'Public Speaking']);
  });
});

describe('a list written without markers, its items labelled by a word and a number', () => {
  it('is a list: each label with what it names, up to an aside', () => {
    const menu = [
      'Here are the main courses:',
      '',
      'Day 1: Mushroom risotto with a green salad (rocket, pear)',
      '',
      'Day 2: Lentil curry with basmati rice',
      '',
      '**Day 3:** Roast cod, potatoes and peas',
      '',
      'Enjoy your week of dinners!',
    ].join('\n');
    expect(listHeads(menu)).toEqual(['Day 1: Mushroom risotto with a green salad', 'Day 2: Lentil curry with basmati rice', 'Day 3: Roast cod']);
  });

  it('needs labels of one word counting on: a paragraph opening on a label is no list', () => {
    expect(listHeads('Step 1: Mix the flour.\nStep 3: Bake it.\nNote 1: Keep warm.')).toEqual([]);
    expect(listHeads('Day 1: A walk.\nThe weather was kind all week and we saw a lot.')).toEqual([]);
  });
});

describe("a thread headed by its first shown list's question", () => {
  const thread: ThreadLine = { id: 1, text: 'How do folk musicians in Leeds usually promote their work?', head: 'request', sources: ['u1'], at: T0, from: T0, to: T0, score: 1, round: 1 };
  const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'], from: T0 + 86_400_000, to: T0 + 86_400_000 };
  const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
  const seqOf = (message: number): number => 1e9 + message * 1e4;
  const fact = (text: string, id: string, m: number, asked: string): SourcedLine => ({ text, sources: [id], at: T0, score: 1, round: 1, seq: seqOf(m), thread: 1, listed: true, asked });

  it('keeps its own head, the list said first under it whatever their rank, a later list on its topic under its question', () => {
    // (Ranked best first: the later list ranks higher.)
    const lines = layout.lines([
      fact('The Unthanks; Seth Lakeman; Kate Rusby', 'a5', 5, 'Do you have any favourite folk singers from Leeds?'),
      fact('Brudenell Social Club; Hyde Park Book Club; The Wardrobe', 'a3', 3, 'Do you know any venues in Leeds popular with folk musicians?'),
      { text: 'Dolin; Noilly Prat; Carpano Antica', sources: ['a20'], at: T0 + 86_400_000, score: 1, round: 1, seq: seqOf(20), thread: 2, listed: true },
    ]);
    expect(lines.slice(0, 4)).toEqual([
      '### 12 May 2025: How do folk musicians in Leeds usually promote their work?',
      '- Assistant listed: Brudenell Social Club; Hyde Park Book Club; The Wardrobe',
      '- Asked: Do you have any favourite folk singers from Leeds?',
      '- Assistant listed: The Unthanks; Seth Lakeman; Kate Rusby',
    ]);
  });
});

describe("a later list on another topic under a head that is the first list's question", () => {
  it('heads a part of its own', () => {
    const thread: ThreadLine = { id: 1, text: 'Tell me about the history of the Tour de France.', head: 'request', sources: ['u1'], at: T0, from: T0, to: T0, score: 1, round: 1 };
    const other: ThreadLine = { ...thread, id: 2, text: 'Can you suggest a vermouth for my gin?', sources: ['u9'], from: T0 + 86_400_000, to: T0 + 86_400_000 };
    const layout = new FactLayout({ threads: [thread, other], kind: 'assist', roleOf: (id) => (id.startsWith('a') ? 'assistant' : 'user') });
    const seqOf = (message: number): number => 1e9 + message * 1e4;
    const fact = (text: string, id: string, m: number, asked: string): SourcedLine => ({ text, sources: [id], at: T0, score: 1, round: 1, seq: seqOf(m), thread: 1, listed: true, asked });
    const lines = layout.lines([
      fact('Maurice Garin; Jacques Anquetil; Eddy Merckx', 'a3', 3, 'Which riders won the Tour de France in its early decades?'),
      fact('Anti-doping controls; Crowd barriers; Medical teams', 'a5', 5, 'What safety measures protect the riders during the race stages?'),
      { text: 'Dolin; Noilly Prat; Carpano Antica', sources: ['a20'], at: T0 + 86_400_000, score: 1, round: 1, seq: seqOf(20), thread: 2, listed: true },
    ]);
    // (The thread keeps its head; the safety measures name nothing said under it: a part of its own.)
    const winners = lines.indexOf('### 12 May 2025: Tell me about the history of the Tour de France.');
    const safety = lines.indexOf('### 12 May 2025: What safety measures protect the riders during the race stages?');
    expect(lines[winners + 1]).toContain('Eddy Merckx');
    expect(safety).toBeGreaterThan(winners);
    expect(lines[safety + 1]).toContain('Anti-doping controls');
  });
});
