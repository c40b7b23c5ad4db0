import { describe, expect, it } from 'vitest';
import { EVENT_BOOST, NEWS_EVENT_BOOST, leansOnAbsent, salienceOf } from '../../src/core/salience';

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
