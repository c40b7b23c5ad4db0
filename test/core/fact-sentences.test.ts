import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import { dropNarration, isFactSentence, referentOf, usableSentences } from '../../src/core/fact-sentences';
import type { ChatMessage } from '../../src/core/messages';

const msg = (id: string, role: 'user' | 'assistant' | 'tool', content: string): ChatMessage =>
  (role === 'tool' ? { id, createdAt: 0, role, content, toolCallId: 'c1' } : { id, createdAt: 0, role, content });
const texts = (xs: readonly { text: string }[]): string[] => xs.map((s) => s.text);

describe('fact sentences', () => {
  it('takes whole prose sentences of the user and the assistant, five words or more', () => {
    const ss = sentencesOf([
      msg('u1', 'user', 'My sister Priya moved to Lisbon in March. Thanks a lot!'),
      msg('a1', 'assistant', 'Let me read your note first.'),
      msg('t1', 'tool', 'The build of the parser module failed with twelve errors.'),
    ]);
    const ok = Object.fromEntries(ss.map((s) => [s.text, isFactSentence(s)]));
    expect(ok['My sister Priya moved to Lisbon in March.']).toBe(true);
    // Too short, an announcement of the assistant's next step, tool output.
    expect(ok['Thanks a lot!']).toBe(false);
    expect(ok['Let me read your note first.']).toBe(false);
    expect(ok['The build of the parser module failed with twelve errors.']).toBe(false);
  });

  it('takes no list item that is only a name, but an item said as a sentence or a step', () => {
    const ss = sentencesOf([
      msg('a1', 'assistant', 'Classic sneakers that go with distressed jeans:\n- Converse Chuck Taylor All Star\n- Adidas Stan Smith Originals Sneakers\n- The user changes their email address\n- Vans Old Skool fits most casual outfits well.'),
    ]);
    const ok = Object.fromEntries(ss.map((s) => [s.text, isFactSentence(s)]));
    expect(ok['Converse Chuck Taylor All Star']).toBe(false);
    expect(ok['Adidas Stan Smith Originals Sneakers']).toBe(false);
    expect(ok['The user changes their email address']).toBe(true);
    expect(ok['Vans Old Skool fits most casual outfits well.']).toBe(true);
    // The same words in a line of prose are a sentence.
    const [prose] = sentencesOf([msg('a2', 'assistant', 'Converse Chuck Taylor All Star')]);
    expect(isFactSentence(prose!)).toBe(true);
  });

  it('joins a pointer-led sentence to the sentence before it in its message, or leaves it out', () => {
    const ss = sentencesOf([
      msg('u1', 'user', 'I bought a Fender guitar at the Camden market last week. It has a maple neck and a sunburst finish.'),
      msg('u2', 'user', 'It sounds wonderful through the old valve amplifier upstairs.'),
    ]);
    expect(referentOf(ss, 1)?.text).toBe('I bought a Fender guitar at the Camden market last week.');
    // The first sentence of a message leans on nothing in it.
    expect(referentOf(ss, 2)).toBeNull();
    const { usable, referents } = usableSentences(ss);
    expect(texts(usable)).toEqual(['I bought a Fender guitar at the Camden market last week.', 'It has a maple neck and a sunburst finish.']);
    expect(referents.get(usable[1]!)).toBe(usable[0]);
  });

  it('keeps a sentence that goes on from the one before, with it when there is one', () => {
    const ss = sentencesOf([msg('u1', 'user', 'We visited the Rijksmuseum in Amsterdam on Sunday. And there is a chance we visit Utrecht next spring.')]);
    const { usable, referents } = usableSentences(ss);
    expect(usable).toHaveLength(2);
    expect(referents.get(usable[1]!)?.text).toBe('We visited the Rijksmuseum in Amsterdam on Sunday.');
  });

  it('carries a sentence building on the one before it ("Similarly, …", "Others …") with it, or not at all', () => {
    const ss = sentencesOf([
      msg('a1', 'assistant', 'Queen Juliana relied on her husband Prince Bernhard during her reign. Similarly, the Norwegian king leaned on his daughter for advice.'),
      msg('a2', 'assistant', 'Others read the treaty as a victory for the northern provinces.'),
      msg('a3', 'assistant', 'Additionally, keep the sourdough starter in the fridge between bakes.'),
    ]);
    const { usable, referents } = usableSentences(ss);
    expect(texts(usable)).toEqual(['Queen Juliana relied on her husband Prince Bernhard during her reign.', 'Similarly, the Norwegian king leaned on his daughter for advice.']);
    expect(referents.get(usable[1]!)?.text).toBe('Queen Juliana relied on her husband Prince Bernhard during her reign.');
    // Nor is one a referent: "There are also …" after it opened on a half whose first half was gone.
    const pair = usableSentences(sentencesOf([msg('a5', 'assistant', 'Others focus on the harvests of the northern provinces. There are also debates over the treaty of Utrecht and its borders.')]));
    expect(pair.usable).toHaveLength(0);
    // With an assistant, a pointer said early without its referent is no fact; between two people it stays one.
    const early = [msg('u6', 'user', "I've already got it hung up in my living room above the sofa.")];
    expect(usableSentences(sentencesOf(early)).usable).toHaveLength(0);
    expect(usableSentences(sentencesOf(early), true).usable).toHaveLength(1);
    // Nor is such a sentence the referent of the one after it: both are about a thing named nowhere.
    const chain = usableSentences(sentencesOf([msg('u7', 'user', "I've already got it hung up in my living room. Plus, it's a great conversation starter with guests.")]));
    expect(chain.usable).toHaveLength(0);
    // "him" with no name before it leans too; a name before "her" says whose.
    expect(usableSentences(sentencesOf([msg('u8', 'user', 'Thanks to him, I released my first EP in the spring.')])).usable).toHaveLength(0);
    expect(usableSentences(sentencesOf([msg('u9', 'user', 'Queen Juliana relied on her husband during the long reign.')])).usable).toHaveLength(1);
    // At work, "Additionally, I changed …" names the agent's own step: it stays a candidate.
    const work = usableSentences(sentencesOf([msg('a4', 'assistant', 'Additionally, the parser now rejects empty headers in the config loader.')]), false, true);
    expect(texts(work.usable)).toEqual(['Additionally, the parser now rejects empty headers in the config loader.']);
  });

  it('between two people, never takes as a referent a sentence that itself goes on from the one before', () => {
    const ss = sentencesOf([
      msg('u1', 'user', 'Hey Dave, thanks for checking in! The insurance process was a hassle with a ton of paperwork. But it is all sorted now, and the garage is fixing my car. I cannot wait to drive it again on the coast road!'),
    ]);
    const last = ss.length - 1;
    expect(referentOf(ss, last)?.text).toMatch(/^But it is all sorted now/);
    expect(referentOf(ss, last, true)).toBeNull();
    const { usable, referents } = usableSentences(ss, true);
    // ("But …" is carried with the insurance sentence, or not at all.)
    for (const s of usable) if (/^But /.test(s.text)) expect(referents.get(s)?.text).toMatch(/^The insurance process/);
    expect([...referents.values()].some((r) => /^But /.test(r.text))).toBe(false);
  });

  it('at work, never takes a "But …" as a referent, even one with its own first half before it', () => {
    const ss = sentencesOf([
      msg('a1', 'assistant', 'The report sorts the rows by their creation date. But we are getting the oldest rows first. That is because `build_rows` passes `reverse=False` to `sorted()`.'),
    ]);
    const last = ss.length - 1;
    // Elsewhere the pointer-led sentence goes with the "But …" before it; at work it stands alone.
    expect(referentOf(ss, last)?.text).toMatch(/^But we are getting/);
    expect(referentOf(ss, last, false, true)).toBeNull();
  });

  it("drops the assistant's narration of its next step, and at work its longer step sentences too", () => {
    const make = () =>
      usableSentences(
        sentencesOf([
          msg('a1', 'assistant', "I'll start by exploring the codebase to find the parser module."),
          msg('a2', 'assistant', 'Now I need to call the setup function before importing the models package.'),
          msg('u1', 'user', 'The parser module lives in the src folder of the repository.'),
        ]),
      ).usable;
    const chat = make();
    dropNarration(chat, false);
    expect(texts(chat)).toEqual(['Now I need to call the setup function before importing the models package.', 'The parser module lives in the src folder of the repository.']);
    const work = make();
    dropNarration(work, true);
    expect(texts(work)).toEqual(['The parser module lives in the src folder of the repository.']);
  });

  it('drops a stage direction of a script the assistant wrote, wholly in brackets', () => {
    const usable = usableSentences(sentencesOf([msg('a1', 'assistant', 'The trailer opens on a server room at night. [Fade to black, and the words "The Ansible Specialist" appear on the screen.]')])).usable;
    dropNarration(usable, false);
    expect(texts(usable)).toEqual(['The trailer opens on a server room at night.']);
  });
});

describe("an assistant's pleasantries", () => {
  it('are no fact with an assistant, nor the referent of a sentence leaning on them; between two people they stay', () => {
    const ss = sentencesOf([
      msg('a1', 'assistant', "Thank you for sharing the detailed findings for Ridge View Echo. It's interesting to see how community input shaped the paper. The study surveyed 300 readers in Blairstown."),
      msg('a2', 'assistant', "It's great to hear that you finished the marathon in Boston. Your split times were steady at 5:40 per kilometre."),
    ]);
    const { usable, referents } = usableSentences(ss);
    dropNarration(usable, false);
    expect(texts(usable)).toEqual(['The study surveyed 300 readers in Blairstown.', 'Your split times were steady at 5:40 per kilometre.']);
    expect([...referents.values()].some((r) => r.text.startsWith('Thank you'))).toBe(false);
    // (Between two people the other side's "It's great to hear …" is theirs to say: not dropped here.)
    expect(referentOf(ss, 1, true)?.text).toBe('Thank you for sharing the detailed findings for Ridge View Echo.');
  });
});
