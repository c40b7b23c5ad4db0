// @vitest-environment jsdom
// One date format in the views: Obsidian's interface language (getLanguage) through Intl.
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/ui/dates';
import { setLanguage } from '../obsidian/testing';

const AT = new Date(2026, 10, 25, 18, 8).getTime();

afterEach(() => setLanguage('en'));

describe('formatDateTime', () => {
  it("follows Obsidian's language", () => {
    setLanguage('en');
    expect(formatDateTime(AT)).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(AT));
    expect(formatDateTime(AT)).toMatch(/^Nov 25, 2026/);
    setLanguage('de');
    expect(formatDateTime(AT)).toBe('25.11.2026, 18:08');
    setLanguage('ja');
    expect(formatDateTime(AT)).toBe('2026/11/25 18:08');
  });

  it('says nothing for an unknown time and survives a language Intl does not know', () => {
    expect(formatDateTime(0)).toBe('');
    expect(formatDateTime(Number.NaN)).toBe('');
    setLanguage('not a language!');
    expect(formatDateTime(AT)).toMatch(/2026/);
  });
});
