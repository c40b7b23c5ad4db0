import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import { isChoice, PASTED_SENTENCES, pastedMessages, priorOf, readsAsIdentity, readsAsUsersOwn, rolePrior, tellsAboutUser, tellsIdentity, tellsProfile } from '../../src/core/fact-prior';
import { profileRank } from '../../src/core/salience';
import type { ChatMessage } from '../../src/core/messages';
import { FIRST_PERSON, MARKUP, QUESTION, SECOND_PERSON } from '../../src/core/traits';

const msg = (id: string, role: 'user' | 'assistant', content: string): ChatMessage => ({ id, createdAt: 0, role, content });

describe('fact prior', () => {
  it("ranks the user's own facts far above explanations with an assistant, and both sides alike between two people", () => {
    expect(rolePrior('user', FIRST_PERSON, false)).toBeCloseTo(3.45);
    expect(rolePrior('assistant', FIRST_PERSON, false)).toBe(1);
    expect(rolePrior('user', FIRST_PERSON, true)).toBeCloseTo(1.4);
    expect(rolePrior('assistant', FIRST_PERSON, true)).toBeCloseTo(1.4);
    expect(rolePrior('tool', 0, false)).toBeCloseTo(0.35);
  });

  it('ranks questions, remarks to the other side and markup down', () => {
    expect(rolePrior('user', FIRST_PERSON | QUESTION, false)).toBeCloseTo(1.15 * 0.55);
    expect(rolePrior('assistant', SECOND_PERSON, false)).toBeCloseTo(0.7);
    expect(rolePrior('assistant', MARKUP, false)).toBeCloseTo(0.3);
  });

  it('ranks a long user message as pasted material in a chat, not at work, and later messages a little up', () => {
    const filler = Array.from({ length: PASTED_SENTENCES }, (_, i) => `The committee approved budget line number ${i + 1} without changes.`).join(' ');
    const ss = sentencesOf([msg('u1', 'user', filler), msg('u2', 'user', 'The committee approved the harbour budget on Friday.')]);
    const pasted = ss[0]!;
    const last = ss[ss.length - 1]!;
    const ctx = { kind: 'assist' as const, lastMessage: 1 };
    expect(priorOf(pasted, pasted.text, ctx)).toBeCloseTo(1.15 * 0.6);
    expect(priorOf(pasted, pasted.text, { ...ctx, kind: 'work' })).toBeCloseTo(1.15);
    expect(priorOf(last, last.text, ctx)).toBeCloseTo(1.15 * 1.1);
  });

  it("ranks a user's choice of what the answer offered up with an assistant", () => {
    const [s] = sentencesOf([msg('u1', 'user', "I think I'll go with a warm white LED bulb with a lower lumen output.")]);
    expect(priorOf(s!, s!.text, { kind: 'assist', lastMessage: 0 })).toBeCloseTo(3.45 * 1.5);
    const [plain] = sentencesOf([msg('u2', 'user', 'I bought a warm white LED bulb with a lower lumen output.')]);
    expect(priorOf(plain!, plain!.text, { kind: 'assist', lastMessage: 0 })).toBeCloseTo(3.45);
  });

  it("ranks a user's remark on the answer as a plain sentence of theirs", () => {
    const [s] = sentencesOf([msg('u1', 'user', 'I had no idea that octopuses have three hearts and blue blood.')]);
    expect(priorOf(s!, s!.text, { kind: 'assist', lastMessage: 0 })).toBeCloseTo(3.45 / 3);
  });

  it('tells the user speaking of themselves from their requests and instructions', () => {
    const [about, ask, instructs] = sentencesOf([
      msg('u1', 'user', 'I work as a nurse at the Leeds general hospital.'),
      msg('u2', 'user', 'I need you to write me a cover letter for a nursing job.'),
      msg('u3', 'user', 'I want you to act as my travel planner for the summer.'),
    ]);
    expect(tellsAboutUser(about!, about!.text)).toBe(true);
    expect(tellsAboutUser(ask!, ask!.text)).toBe(false);
    expect(tellsAboutUser(instructs!, instructs!.text)).toBe(false);
  });

  it('reads a message that hands over pasted text as someone else\'s words, whatever its pronouns', () => {
    const sentences = sentencesOf([
      msg('u1', 'user', "Here is the text: What are your hobbies? Injury has curtailed my marathon running so I moved to cycling. My favourite team is Manchester United."),
      msg('u2', 'user', 'Injury has curtailed my marathon running so I moved to cycling.'),
    ]);
    const pasted = pastedMessages(sentences);
    expect([...pasted]).toEqual([0]);
    const [, , injuryPasted] = sentences;
    const injuryOwn = sentences.find((s) => s.id === 'u2');
    expect(tellsAboutUser(injuryPasted!, injuryPasted!.text, pasted)).toBe(false);
    expect(tellsAboutUser(injuryOwn!, injuryOwn!.text, pasted)).toBe(true);
    const ctx = { kind: 'assist' as const, lastMessage: 1, pasted };
    expect(priorOf(injuryPasted!, injuryPasted!.text, ctx)).toBeLessThan(priorOf(injuryOwn!, injuryOwn!.text, ctx) / 2);
    expect(pastedMessages(sentencesOf([msg('u3', 'user', 'Here is my plan for the weekend: a hike and a film.')])).size).toBe(0);
  });

  it('tells a speaker saying who they are, only between two people', () => {
    const [s] = sentencesOf([msg('a1', 'assistant', "I'm a volunteer firefighter in the village of Hebden.")]);
    expect(tellsIdentity(s!, s!.text, true)).toBe(true);
    expect(tellsIdentity(s!, s!.text, false)).toBe(false);
    // A reply to the other's news that mentions the speaker's job is not who they are.
    const [seeing, why] = sentencesOf([msg('a2', 'assistant', "Seeing them live must've been awesome. That's why I love my job so much - connecting with the crowd.")]);
    expect(readsAsIdentity(why!, `${seeing!.text} ${why!.text}`)).toBe(false);
    expect(readsAsIdentity(s!, s!.text)).toBe(true);
  });

  it('tells what a speaker owns, runs or works as between two people, whatever its rank', () => {
    expect(profileRank('I finally opened my own car maintenance shop!')).toBe(1);
    expect(profileRank('I work as a nurse at the county hospital.')).toBe(1);
    expect(profileRank("I'm a shooting guard for the team.")).toBe(1);
    expect(profileRank('I went to the shop to buy some paint yesterday.')).toBe(0);
    expect(profileRank('Do you run your own business?')).toBe(0);
    // A fact joined with its referent reads as the referent's: the profile is read on the text shown.
    expect(tellsProfile('I finally opened my own car maintenance shop! It is a dream come true.', true)).toBe(true);
    expect(tellsProfile('It is my own little studio, and I love it.', true)).toBe(false);
    expect(tellsProfile('I finally opened my own car maintenance shop!', false)).toBe(false);
  });
});

describe("what reads as the user's own fact under About the user", () => {
  const about = (text: string): boolean => {
    const s = sentencesOf([msg('u', 'user', text)])[0]!;
    return tellsAboutUser(s, s.text);
  };

  it('takes what the user tells of themselves, a person they name included', () => {
    expect(about('I did my study abroad program at the University of Melbourne with two friends.')).toBe(true);
    expect(about('My sister Lena said she would lend me her tent for the trip.')).toBe(true);
    expect(about('I called Grandma on Sunday and she told me about her garden.')).toBe(true);
  });

  it('leaves out a quoted "I", curiosity, thanks for the answer, advice to the reader and a person not named', () => {
    expect(about('tradução: The French philosopher René Descartes is known for the phrase "I think therefore I exist".')).toBe(false);
    expect(about("I'm curious to know how he plans to bring this passion into his upcoming game.")).toBe(false);
    expect(about('Thanks, that makes the laptop choice much clearer for me.')).toBe(false);
    expect(about('For getting your rare 1913 nickel graded, I recommend reaching out to PCGS or NGC.')).toBe(false);
    expect(about('Last time I checked up on him he had gotten a new job at the front desk.')).toBe(false);
    expect(readsAsUsersOwn('I quoted "I think therefore I am" in my essay on Descartes.')).toBe(true);
    expect(about('I think the seasoning is quite spicy, so it might be one of the first two options you mentioned.')).toBe(false);
    expect(about("I'm excited to try out this stir-fry recipe with the tips you provided.")).toBe(false);
    expect(about('Thanks for providing me with the contact details of the tourism board of Speyer.')).toBe(false);
    expect(about('nice, next time let me know even the slightest differences between our translations.')).toBe(false);
    expect(about("I'm hoping with more practice, it'll become second nature.")).toBe(false);
    expect(about('I thought it was a relatively unknown book.')).toBe(false);
    // (Naming something beside the pointer, it tells of the user.)
    expect(about('I bought it at the Trader Joe\'s on Main Street last week.')).toBe(true);
  });
});

describe('isChoice', () => {
  it("takes what the user says they will do with the answer's offer as a choice when it names it", () => {
    for (const t of [
      "I think I'll book a Strip View Room with a king-size bed.",
      "I think I'll check out Everlane and Cuyana.",
      "I like the sound of Depeche Mode and The Human League, I'll definitely check them out.",
      "I think I'll start with Ina Garten's Barefoot Contessa at Home.",
      'I am leaning towards using AWS.',
      "I think I'll look into replacing the battery then.",
      "I think I'll go with the 2700K bulb.",
      "I think I'll give Brooklyn Nine-Nine a try.",
      'I\'ll give "The Good Place" a shot.',
    ])
      expect(isChoice(t), t).toBe(true);
  });

  it('takes no line whose object is only a pointer or a word for any offer', () => {
    for (const t of ["I'll check them out!", "I'll check out those options.", "I'll definitely check out that performance!", "I'll check out those websites and apps, thanks.", 'I will check out some of the resources you provided.', 'I bought a warm white LED bulb.', "I'll get back to you on the dates.", "I'll give it a try!", "I think I'll give them a go."])
      expect(isChoice(t), t).toBe(false);
  });
});

describe('isChoice, one sentence', () => {
  it('reads the object in its own sentence only', () => {
    expect(isChoice("I'll definitely check out those resources and tools for my expenses. It's great to know there are options.")).toBe(false);
    expect(isChoice("I'll look into other options and compare plans to see if I can get a better deal.")).toBe(false);
  });
});
