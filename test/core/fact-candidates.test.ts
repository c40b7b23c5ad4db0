import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import { type CandidateContext, answerCandidates, carriedCandidates, sentenceCandidates } from '../../src/core/fact-candidates';
import { usableSentences } from '../../src/core/fact-sentences';
import type { ChatMessage } from '../../src/core/messages';
import type { SourcedLine } from '../../src/core/record';

const user = (id: string, content: string): ChatMessage => ({ id, createdAt: 0, role: 'user', content });
// Flat weights and priors: what is tested is how the candidates are built, not how they rank.
const ctx = (round = 1): CandidateContext => ({
  round,
  talk: false,
  prior: () => 1,
  rolePrior: () => 1,
  weigh: (_text, ids) => ids.map(() => 1),
  focusBoost: () => 1,
});
const carriedFact = (round: number, shown?: number): SourcedLine => ({ text: 'Anika adopted a greyhound called Pepper.', sources: ['x'], at: 0, score: 1, round, seq: round, ...(shown ? { shown } : {}) });

describe('fact candidates', () => {
  it('joins a pointer-led sentence to its referent, ruling out that sentence alone', () => {
    const { usable, referents } = usableSentences(sentencesOf([user('u1', 'I bought a Fender guitar at the Camden market last week. It has a maple neck and a sunburst finish.')]));
    const cs = sentenceCandidates(usable, referents, new Uint8Array([1, 1]), ctx());
    expect(cs.map((c) => c.text)).toEqual(['I bought a Fender guitar at the Camden market last week.', 'I bought a Fender guitar at the Camden market last week. It has a maple neck and a sunburst finish.']);
    expect(cs[1]).toMatchObject({ group: 1, alsoGroup: 0, sources: ['u1'] });
    // The user telling about themselves, as the sentence's own form says.
    expect(cs[0]!.about).toBe(true);
  });

  it('between two people, brings the referent of a referent: "We won it" with the game it won', () => {
    const text = 'Last week I had a crazy game with the Wolves in Seattle! We won it by a tight score. Scoring that last basket and hearing the crowd cheer was awesome!';
    const { usable, referents } = usableSentences(sentencesOf([user('u1', text)]), true);
    const all = new Uint8Array(usable.length).fill(1);
    const talk = sentenceCandidates(usable, referents, all, { ...ctx(), talk: true }).map((c) => c.text);
    // No candidate opens on "We won it" without the game, nor on the basket without the win.
    expect(talk.every((t) => !/^(?:We won it|Scoring that)/.test(t))).toBe(true);
    expect(talk).toContain(text);
    // With an assistant, a referent goes alone with the sentence leaning on it (one step).
    expect(sentenceCandidates(usable, referents, all, ctx()).map((c) => c.text)).toContain('We won it by a tight score. Scoring that last basket and hearing the crowd cheer was awesome!');
  });

  it('between two people, joins a referent chain without the pictures that name nothing, keeping one that names a place', () => {
    const text = 'Last week I had a crazy game with the Wolves in Seattle! We won it by a tight score. [shares a photo: a photo of a crowd cheering in a large arena]';
    const { usable, referents } = usableSentences(sentencesOf([user('u1', text)]), true);
    const talk = sentenceCandidates(usable, referents, new Uint8Array(usable.length).fill(1), { ...ctx(), talk: true }).map((c) => c.text);
    expect(talk).toContain('Last week I had a crazy game with the Wolves in Seattle! We won it by a tight score.');
    expect(talk.some((t) => t.includes('[shares a photo'))).toBe(false);
    // A caption naming something tells what the words do not: it stays with its sentence.
    const named = 'We hiked up to the summit before sunrise. It was worth every step. [shares a photo: the Kilimanjaro summit sign at 5895 metres]';
    const chain = usableSentences(sentencesOf([user('u2', named)]), true);
    const texts = sentenceCandidates(chain.usable, chain.referents, new Uint8Array(chain.usable.length).fill(1), { ...ctx(), talk: true }).map((c) => c.text);
    expect(texts).toContain(named);
    // With an assistant the parts are joined as said.
    expect(sentenceCandidates(usable, referents, new Uint8Array(usable.length).fill(1), ctx()).map((c) => c.text)).toContain('Last week I had a crazy game with the Wolves in Seattle! We won it by a tight score. [shares a photo: a photo of a crowd cheering in a large arena]');
  });

  it("never takes the user's question with the sentence leaning on it for a fact about the user", () => {
    const { usable, referents } = usableSentences(sentencesOf([user('u1', "Do you have any other strategies for remembering complex theories and concepts? I've always struggled with those kinds of subjects.")]));
    const cs = sentenceCandidates(usable, referents, new Uint8Array(usable.length).fill(1), ctx());
    const joined = cs.find((c) => c.text.startsWith('Do you have') && c.text.includes('struggled'));
    expect(joined).toBeDefined();
    expect(joined!.about).toBeUndefined();
  });

  it('marks a profile between two people as who the speaker is, joined with its pointer-led follow-up too', () => {
    const { usable, referents } = usableSentences(sentencesOf([user('u1', "I finally opened my own car maintenance shop! It's so satisfying to have a spot to work on cars for the whole street.")]));
    const cs = sentenceCandidates(usable, referents, new Uint8Array([1, 1]), { ...ctx(), talk: true });
    expect(cs.map((c) => [c.text, c.identity === true])).toEqual([
      ['I finally opened my own car maintenance shop!', true],
      ["I finally opened my own car maintenance shop! It's so satisfying to have a spot to work on cars for the whole street.", true],
    ]);
    expect(sentenceCandidates(usable, referents, new Uint8Array([1, 1]), ctx()).some((c) => c.identity)).toBe(false);
  });

  it('offers a sentence without its bracketed aside too, in the same group, and only the chosen ones', () => {
    const { usable, referents } = usableSentences(sentencesOf([user('u1', 'We won the regional quiz final in Bristol! [shares a photo of the trophy]'), user('u2', 'The next quiz night is at the Crown on Friday.')]));
    const cs = sentenceCandidates(usable, referents, new Uint8Array([1, 0]), ctx());
    expect(cs.map((c) => [c.text, c.group])).toEqual([
      ['We won the regional quiz final in Bristol! [shares a photo of the trophy]', 0],
      ['We won the regional quiz final in Bristol!', 0],
    ]);
    expect(cs[1]!.cost).toBeLessThan(cs[0]!.cost);
  });

  it("carries an answer's list heads as one listed candidate in a group after the sentences'", () => {
    const [c] = answerCandidates([{ id: 'a1', at: 5, message: 3, heads: ['Lentil soup', 'Chickpea curry'] }], 7, ctx(2));
    expect(c).toMatchObject({ text: 'Lentil soup; Chickpea curry', sources: ['a1'], at: 5, pos: 7, group: 7, listed: true, seq: 2e9 + 3e4 });
  });

  it('gives a shown carried fact its seniority, tripled for each round of age up to a limit', () => {
    const seniority = { seniority: 2, shownSeniority: 3 };
    const boost = (f: SourcedLine, round: number): number => carriedCandidates([f], [[1, 2]], seniority, ctx(round))[0]!.boost;
    expect(boost(carriedFact(1), 3)).toBe(2);
    expect(boost(carriedFact(3, 3), 3)).toBe(6);
    expect(boost(carriedFact(1, 3), 3)).toBe(6 * 9);
    expect(boost(carriedFact(1, 3), 1000)).toBe(6 * 3 ** 24);
    const [a, b] = carriedCandidates([carriedFact(1), carriedFact(2)], [[1], [2]], {}, ctx(3));
    // Older than every new sentence, in the pool's order, each in a group of its own.
    expect([a!.pos, b!.pos, a!.group, b!.group]).toEqual([-2, -1, -1, -2]);
  });
});
