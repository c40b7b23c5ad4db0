import { describe, expect, it } from 'vitest';
import { EVENT_BOOST, GENERIC_RANK, NEWS_EVENT_BOOST, generalises, leansOnAbsent, salienceOf, tellsEvent } from '../../src/core/salience';

describe('talk lines leaning on what the block does not hold', () => {
  it('reads a reply to a question and a thing not named as leaning', () => {
    expect(leansOnAbsent('Yep, I just finished reading a new fantasy series.')).toBe(true);
    expect(leansOnAbsent('Nope, not yet, but I booked the ferry to Naxos.')).toBe(true);
    expect(leansOnAbsent('I had this custom made by a potter in Lisbon.')).toBe(true);
    expect(leansOnAbsent('I just finished reading a new fantasy series.')).toBe(false);
    // A time is no thing left out; "Yesterday" opens no reply.
    expect(leansOnAbsent('This week I started a pottery class in Lisbon.')).toBe(false);
    expect(leansOnAbsent('Yesterday I adopted a greyhound.')).toBe(false);
  });

  it('ranks such a line as a plain sentence, not as the event it tells', () => {
    expect(salienceOf('I just finished reading a new fantasy series.')).toBe(NEWS_EVENT_BOOST);
    expect(salienceOf('Yep, I just finished reading a new fantasy series.')).toBe(1);
    expect(salienceOf('I had this custom made by a potter in Lisbon for my birthday.')).toBe(1);
    expect(salienceOf('A potter in Lisbon made it for my birthday.')).toBe(EVENT_BOOST);
  });
});

describe('talk lines that name nothing of their own', () => {
  it('reads a short event verb as a word, not as the start of a longer one', () => {
    expect(tellsEvent('We won the regional final.')).toBe(true);
    expect(tellsEvent('Sunshine and good company can do wonders.')).toBe(false);
    expect(tellsEvent('The light through the windows was quite lovely.')).toBe(false);
    expect(tellsEvent('She quit her job at the bank.')).toBe(true);
  });

  it('ranks a generalisation with no person, name, figure or event next to nothing', () => {
    expect(generalises('Sunshine and good company can do wonders.')).toBe(true);
    expect(generalises('Regular walks can be a great way to stay active.')).toBe(true);
    expect(generalises('I take regular walks to stay active.')).toBe(false);
    expect(generalises('Walks around Lake Merritt keep Dana sane.')).toBe(false);
    expect(generalises('Walking 10,000 steps a day can do wonders.')).toBe(false);
    expect(salienceOf('Sunshine and good company can do wonders.')).toBe(GENERIC_RANK);
    expect(salienceOf('I take regular walks to stay active.')).toBe(1);
  });
});
