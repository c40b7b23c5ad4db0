import { describe, expect, it } from 'vitest';
import { isCapitalised, markCapitalised } from '../../src/core/capitalised';
import { internWord } from '../../src/core/vocab';

describe('capitalised words', () => {
  it('marks the words written with a capital after a space, not the opening word nor hyphenated ones', () => {
    const [we, delft, zurich, jean, market] = ['we', 'delft', 'zürich', 'jean', 'market'].map((w) => internWord(w));
    markCapitalised('We went to Delft and Zürich, met Jean-Luc at the market');
    expect(isCapitalised(delft as number)).toBe(true);
    expect(isCapitalised(zurich as number)).toBe(true);
    expect(isCapitalised(we as number)).toBe(false);
    expect(isCapitalised(jean as number)).toBe(false);
    expect(isCapitalised(market as number)).toBe(false);
    // Marks belong to the last text marked.
    markCapitalised('the market in delft');
    expect(isCapitalised(delft as number)).toBe(false);
  });

  it('marks a word the table did not hold yet the same as one it held: what was compacted before changes nothing', () => {
    // (Before, a capitalised word was only looked up: one the table lacked went unmarked, so a
    // block depended on which conversations the same process had read before.)
    markCapitalised('We flew to Qwzmbrook on Friday');
    expect(isCapitalised(internWord('qwzmbrook'))).toBe(true);
  });

  it('does not mark the name of the one addressed, only the names talked about', () => {
    const [tim, dave, boston, calvin, rome] = ['tim', 'dave', 'boston', 'calvin', 'rome'].map((w) => internWord(w));
    markCapitalised('Hey Tim, sorry I missed you at the Boston show.');
    expect(isCapitalised(tim as number)).toBe(false);
    expect(isCapitalised(boston as number)).toBe(true);
    markCapitalised('Thanks, Dave! I got it from Calvin in Rome.');
    expect(isCapitalised(dave as number)).toBe(false);
    expect(isCapitalised(calvin as number)).toBe(true);
    markCapitalised('Good luck with the tour, Calvin!');
    expect(isCapitalised(calvin as number)).toBe(false);
    // A place after a comma ends a statement, not an address.
    markCapitalised('We flew to Italy, Rome.');
    expect(isCapitalised(rome as number)).toBe(true);
  });
});
