// @vitest-environment jsdom
// The `[[` picker's placement: its popover carries the caret's coordinates (jsdom has no layout,
// so the caret's box is stubbed here; the browser suite checks the real geometry) and sits below
// the caret when the window has room, above it when not.
import { describe, expect, it } from 'vitest';
import { mentionQuery } from '../../src/ui/mention-suggest';
import { typeInto } from '../obsidian/testing';
import { input, startUi, type UiHarness, until, closeUiAfterEach } from './helpers';

let h: UiHarness;
closeUiAfterEach(() => h);

const popover = (): HTMLElement | null => document.querySelector<HTMLElement>('.suggestion-container');

/** Puts the textarea at `top` px from the top of a `height` px window (jsdom lays out nothing). */
function placeTextarea(area: HTMLTextAreaElement, top: number, height: number): void {
  Object.defineProperty(window, 'innerHeight', { value: height, configurable: true });
  Object.defineProperty(window, 'innerWidth', { value: 1000, configurable: true });
  area.getBoundingClientRect = () => ({ left: 600, top, right: 900, bottom: top + 60, width: 300, height: 60, x: 600, y: top, toJSON: () => ({}) });
}

describe('the [[ picker', () => {
  it('opens under the caret when the window has room below', async () => {
    h = await startUi({}, { 'Projects/Garden plan.md': 'Beds.' });
    placeTextarea(input(h), 100, 800);
    typeInto(input(h), 'See [[gard');
    await until(() => popover() !== null);
    const el = popover();
    expect(el?.hasClass('compact-chat-mention-popover')).toBe(true);
    expect(el?.hasClass('is-above')).toBe(false);
    expect(el?.style.getPropertyValue('--compact-chat-mention-left')).toBe('600px');
    const top = parseFloat(el?.style.getPropertyValue('--compact-chat-mention-top') ?? '');
    expect(top).toBeGreaterThan(100);
    expect(top).toBeLessThan(140);
  });

  it('opens above the caret at the foot of the window', async () => {
    h = await startUi({}, { 'Projects/Garden plan.md': 'Beds.' });
    placeTextarea(input(h), 740, 800);
    typeInto(input(h), 'See [[gard');
    await until(() => popover() !== null);
    expect(popover()?.hasClass('is-above')).toBe(true);
    const bottom = parseFloat(popover()?.style.getPropertyValue('--compact-chat-mention-bottom') ?? '');
    expect(bottom).toBeGreaterThan(55);
    expect(bottom).toBeLessThan(65);
  });

  it('reads the mention being typed before the caret', () => {
    expect(mentionQuery('See [[gard', 10)).toEqual({ start: 4, query: 'gard' });
    expect(mentionQuery('See [[gard]] and', 16)).toBeNull();
    expect(mentionQuery('[[a|b', 5)).toBeNull();
    expect(mentionQuery('line\n[[x', 8)).toEqual({ start: 5, query: 'x' });
  });
});
