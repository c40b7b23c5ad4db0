// @vitest-environment jsdom
// Search, debounce, Platform, icons and the API version check.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Platform,
  debounce,
  getIcon,
  prepareFuzzySearch,
  prepareSimpleSearch,
  renderMatches,
  requireApiVersion,
  setIcon,
  setTooltip,
  sortSearchResults,
} from './index';
import { createTestApp, setPlatform } from './testing';

afterEach(() => {
  vi.useRealTimers();
});

describe('search', () => {
  it('fuzzy-matches characters in order, scoring tighter matches higher', () => {
    const search = prepareFuzzySearch('cpt');
    const tight = search('compact chat');
    expect(tight?.matches).toEqual([[0, 1], [3, 4], [6, 7]]);
    expect(search('tpc')).toBeNull();
    const contiguous = prepareFuzzySearch('chat')('compact chat');
    expect(contiguous?.matches).toEqual([[8, 12]]);
    expect(contiguous?.score).toBeGreaterThan(tight?.score ?? 0);
    expect(contiguous?.score).toBeLessThanOrEqual(0);
    expect(prepareFuzzySearch('')('anything')).toEqual({ score: 0, matches: [] });
  });

  it('simple-searches for every word, in any order', () => {
    const search = prepareSimpleSearch('chat compact');
    expect(search('Compact Chat')?.matches).toEqual([[0, 7], [8, 12]]);
    expect(search('compact')).toBeNull();
  });

  it('sorts results best first and renders highlighted matches as text', () => {
    const results = [{ match: { score: -3, matches: [] } }, { match: { score: -1, matches: [] } }];
    sortSearchResults(results);
    expect(results.map((r) => r.match.score)).toEqual([-1, -3]);
    const el = createDiv();
    renderMatches(el, '<b>chat</b>', [[3, 7]]);
    expect(el.innerHTML).toBe('&lt;b&gt;<span class="suggestion-highlight">chat</span>&lt;/b&gt;');
  });
});

describe('debounce', () => {
  it('runs once per burst with the latest arguments, and supports cancel and run', () => {
    vi.useFakeTimers();
    const cb = vi.fn((value: number) => value * 2);
    const debounced = debounce(cb, 100);
    debounced(1);
    debounced(2);
    vi.advanceTimersByTime(100);
    expect(cb).toHaveBeenCalledTimes(1);
    expect(cb).toHaveBeenLastCalledWith(2);
    debounced(3).cancel();
    vi.advanceTimersByTime(100);
    expect(cb).toHaveBeenCalledTimes(1);
    debounced(4);
    expect(debounced.run()).toBe(8);
    expect(debounced.run()).toBeUndefined();
  });

  it('restarts the wait on each call with resetTimer', () => {
    vi.useFakeTimers();
    const cb = vi.fn();
    const debounced = debounce(cb, 100, true);
    debounced();
    vi.advanceTimersByTime(80);
    debounced();
    vi.advanceTimersByTime(80);
    expect(cb).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(cb).toHaveBeenCalledTimes(1);
  });
});

describe('Platform', () => {
  it('defaults to the desktop app and can be switched by tests', () => {
    createTestApp();
    expect(Platform).toMatchObject({ isDesktop: true, isDesktopApp: true, isMobile: false, isMobileApp: false });
    setPlatform({ isDesktop: false, isDesktopApp: false, isMobile: true, isMobileApp: true, isPhone: true, isIosApp: true });
    expect(Platform).toMatchObject({ isMobile: true, isPhone: true, isIosApp: true, isDesktop: false });
    createTestApp();
    expect(Platform.isMobile).toBe(false);
  });
});

describe('icons and tooltips', () => {
  it('renders an svg for any icon id and replaces the element content', () => {
    expect(getIcon('')).toBeNull();
    expect(getIcon('dice')?.classList.contains('lucide-dice')).toBe(true);
    const el = createDiv({ text: 'Old' });
    setIcon(el, 'message-square');
    expect(el.getText()).toBe('');
    expect(el.querySelector('svg.svg-icon.lucide-message-square')).not.toBeNull();
    setTooltip(el, 'Open chat', { placement: 'top' });
    expect(el.getAttr('aria-label')).toBe('Open chat');
    expect(el.getAttr('data-tooltip-position')).toBe('top');
  });
});

describe('App', () => {
  it('keeps vault-scoped local storage as JSON copies, per app', () => {
    const app = createTestApp();
    const value = { open: true };
    app.saveLocalStorage('compact-chat:state', value);
    value.open = false;
    expect(app.loadLocalStorage('compact-chat:state')).toEqual({ open: true });
    app.saveLocalStorage('compact-chat:state', null);
    expect(app.loadLocalStorage('compact-chat:state')).toBeNull();
    app.saveLocalStorage('other', 1);
    expect(createTestApp().loadLocalStorage('other')).toBeNull();
  });

  it('reports dark mode from the body class, and puts its DOM in the document', () => {
    const app = createTestApp();
    expect(app.isDarkMode()).toBe(false);
    activeDocument.body.addClass('theme-dark');
    expect(app.isDarkMode()).toBe(true);
    activeDocument.body.removeClass('theme-dark');
    expect(app.containerEl.isConnected).toBe(true);
    expect(app.workspace.rootSplit.containerEl.isConnected).toBe(true);
    expect(app.workspace.activeLeaf?.view.getViewType()).toBe('empty');
  });
});

describe('requireApiVersion', () => {
  it('compares dotted versions against the runtime version', () => {
    expect(requireApiVersion('1.11.4')).toBe(true);
    expect(requireApiVersion('1.13.1')).toBe(true);
    expect(requireApiVersion('1.13.2')).toBe(false);
    expect(requireApiVersion('2.0')).toBe(false);
  });
});
