// Path and link-text helpers, against Obsidian's documented behaviour.
import { describe, expect, it } from 'vitest';
import { getLinkpath, normalizePath, parseLinktext } from './index';

describe('normalizePath', () => {
  it.each([
    ['notes/today.md', 'notes/today.md'],
    ['/notes//today.md/', 'notes/today.md'],
    ['\\\\notes\\today.md', 'notes/today.md'],
    ['a\\/\\b', 'a/b'],
    ['', '/'],
    ['/', '/'],
    ['///', '/'],
    ['my\u00A0note.md', 'my note.md'],
    ['narrow\u202Fspace', 'narrow space'],
    ['cafe\u0301.md', 'café.md'],
  ])('%j → %j', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it('produces NFC, so decomposed and composed names are the same path', () => {
    expect(normalizePath('e\u0301').length).toBe(1);
    expect(normalizePath('e\u0301')).toBe(normalizePath('\u00e9'));
  });
});

describe('parseLinktext and getLinkpath', () => {
  it('splits off the subpath, keeping its #', () => {
    expect(parseLinktext('Note')).toEqual({ path: 'Note', subpath: '' });
    expect(parseLinktext('folder/Note#Heading')).toEqual({ path: 'folder/Note', subpath: '#Heading' });
    expect(parseLinktext('Note#^block-id')).toEqual({ path: 'Note', subpath: '#^block-id' });
    expect(parseLinktext('#Heading')).toEqual({ path: '', subpath: '#Heading' });
    expect(getLinkpath('Note#A#B')).toBe('Note');
  });
});
