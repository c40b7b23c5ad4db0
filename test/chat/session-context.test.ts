// Notes as context in the send loop: `[[mentions]]` and the active note are sent in the system
// prompt, re-read on every send. (The tools in the loop: tool-loop.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, ollamaReply, startHarness, systemOf } from './helpers/harness';

let h: Harness;
afterEach(async () => {
  await h.close();
});

describe('notes as context', () => {
  it('sends the notes a message mentions, read as they are at each send, and records the mentions', async () => {
    h = await startHarness({}, { 'Projects/Garden.md': 'Beds: three.', 'Other.md': 'Unrelated.' });
    h.server.on('POST', '/api/chat', ollamaReply('Three beds.'), ollamaReply('Now four.'));
    await h.session.send('How many beds in [[Garden]]?');
    expect(systemOf(h.bodies()[0])).toContain('<note path="Projects/Garden.md">\nBeds: three.');
    expect(systemOf(h.bodies()[0])).not.toContain('Unrelated');
    expect(h.session.entries[0]).toMatchObject({ mentions: ['Projects/Garden.md'] });
    h.notes.notes.set('Projects/Garden.md', 'Beds: four.');
    await h.session.send('And now?');
    expect(systemOf(h.bodies()[1])).toContain('Beds: four.');
    expect(h.session.toSaved()[0]).toMatchObject({ mentions: ['Projects/Garden.md'] });
  });

  it('includes the active note\'s current text when the toggle is on', async () => {
    h = await startHarness({ includeActiveNote: true }, { 'Today.md': 'First draft.' });
    h.notes.active = 'Today.md';
    h.server.on('POST', '/api/chat', ollamaReply('Ok.'), ollamaReply('Ok again.'));
    await h.session.send('Summarise');
    expect(systemOf(h.bodies()[0])).toContain('<active_note path="Today.md">\nFirst draft.');
    h.notes.notes.set('Today.md', 'Second draft.');
    await h.session.send('Again');
    expect(systemOf(h.bodies()[1])).toContain('Second draft.');
    expect(systemOf(h.bodies()[1])).not.toContain('First draft.');
  });
});
