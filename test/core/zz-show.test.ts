import { it } from 'vitest';
import { readsAsUsersOwn } from '../../src/core/fact-prior';
it('show', () => {
  for (const t of ["I've been using a Philips LED bulb in my bedside lamp, and I really like the warm tone it provides.", 'I actually went there with some friends during my study abroad program at the University of Melbourne. If you have time, I\'d recommend stopping by the Kennett River Koala Walk.', 'For getting your rare 1913 Liberty Head nickel graded and certified, I recommend reaching out to reputable coin grading companies like PCGS.', "I'm curious to know how he plans to incorporate this passion into his upcoming game, Death Stranding.", 'Last time I checked up on him he had gotten a new job.', 'tradução: The french philosopher René Descartes is known for the phrase "I think therefore I exist".']) console.log(readsAsUsersOwn(t), t.slice(0, 50));
});
