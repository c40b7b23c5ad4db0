// @vitest-environment jsdom
// The stall indicator on a fake clock (no timing in the test): silent for under five seconds
// shows nothing, then "Waiting for the server (N s)" counting up; anything arriving resets it;
// the end of the request hides it. And the view has it wired under the status line.
import { afterEach, describe, expect, it } from 'vitest';
import { STALL_AFTER_MS, StallIndicator } from '../../src/ui/stall-indicator';
import { closeUi, startUi, type UiHarness } from './helpers';

let h: UiHarness | undefined;
afterEach(async () => {
  await closeUi(h);
  h = undefined;
});

describe('the stall indicator', () => {
  it('appears after a silence, counts, resets on activity and hides when the request ends', () => {
    let now = 0;
    const el = createDiv();
    const stall = new StallIndicator(el, () => now);
    stall.setRunning(true);
    now = STALL_AFTER_MS - 1;
    stall.tick();
    expect(el.getText()).toBe('');
    now = 12_400;
    stall.tick();
    expect(el.getText()).toBe('Waiting for the server (12 s)');
    expect(el.hasClass('is-stalled')).toBe(true);
    stall.activity();
    expect(el.getText()).toBe('');
    now += STALL_AFTER_MS;
    stall.tick();
    expect(el.getText()).toBe('Waiting for the server (5 s)');
    stall.setRunning(false);
    expect(el.getText()).toBe('');
    now += 60_000;
    stall.tick();
    expect(el.getText()).toBe('');
  });

  it('sits under the status line of the chat view, empty while idle', async () => {
    h = await startUi();
    const el = h.view().find('.compact-chat-stall');
    expect(el?.previousElementSibling?.hasClass('compact-chat-status')).toBe(true);
    expect(el?.getText()).toBe('');
  });
});
