// Link resolution and per-file metadata.
import type { CachedMetadata } from 'obsidian';
import { describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from './adapter';
import { FileManager, MetadataCache, TFile, Vault, getFrontMatterInfo } from './index';

function setup(files: Record<string, string>): { vault: Vault; cache: MetadataCache } {
  const adapter = new MemoryAdapter();
  adapter.seed(files);
  const vault = new Vault(adapter);
  return { vault, cache: new MetadataCache(vault) };
}

describe('getFirstLinkpathDest', () => {
  const { vault, cache } = setup({
    'Inbox.md': '',
    'projects/Plan.md': '',
    'projects/alpha/Plan.md': '',
    'archive/Plan.md': '',
    'notes/Deep/Idea.md': '',
    'assets/diagram.png': '',
    'notes/Source.md': '',
  });
  const dest = (link: string, source = 'notes/Source.md'): string | null => cache.getFirstLinkpathDest(link, source)?.path ?? null;

  it('finds a note by its name, without or with the extension, case-insensitively', () => {
    expect(dest('Inbox')).toBe('Inbox.md');
    expect(dest('inbox.md')).toBe('Inbox.md');
    expect(dest('idea')).toBe('notes/Deep/Idea.md');
    expect(dest('diagram.png')).toBe('assets/diagram.png');
  });

  it('prefers an exact vault path, then the source folder, then the shortest path', () => {
    expect(dest('projects/alpha/Plan')).toBe('projects/alpha/Plan.md');
    expect(dest('alpha/Plan')).toBe('projects/alpha/Plan.md');
    expect(dest('Plan', 'projects/alpha/Note.md')).toBe('projects/alpha/Plan.md');
    expect(dest('Plan', 'Inbox.md')).toBe('archive/Plan.md'); // equal length: alphabetical
  });

  it('resolves relative paths against the source note', () => {
    expect(dest('../projects/Plan', 'notes/Source.md')).toBe('projects/Plan.md');
    expect(dest('./Deep/Idea', 'notes/Source.md')).toBe('notes/Deep/Idea.md');
    expect(dest('./Plan', 'notes/Source.md')).toBeNull();
  });

  it('points an empty link at the source and misses unknown names', () => {
    expect(dest('')).toBe('notes/Source.md');
    expect(dest('Nowhere')).toBeNull();
    expect(vault.getFiles().length).toBe(7);
  });
});

describe('getFileCache', () => {
  const note = [
    '---',
    'title: "Hello"',
    'count: 3',
    'tags: [a, b]',
    'aliases:',
    '  - One',
    '  - Two',
    '---',
    '# Heading one',
    'See [[Other note#Part|the part]] and ![[image.png]] and [md](Folder/Note%20x.md) #tag/sub.',
    '```',
    '[[not a link]] #notatag',
    '```',
    'Inline `[[code]]` is skipped; [web](https://example.com) is external.',
    '## Second ##',
  ].join('\n');
  const { vault, cache } = setup({ 'n.md': note, 'Other note.md': '', 'data.txt': '[[x]]' });
  const file = vault.getFileByPath('n.md');
  const meta = file ? cache.getFileCache(file) : null;

  it('reads frontmatter', () => {
    expect(meta?.frontmatter).toEqual({ title: 'Hello', count: 3, tags: ['a', 'b'], aliases: ['One', 'Two'] });
    expect(meta?.frontmatterPosition?.start.line).toBe(0);
    expect(meta?.frontmatterPosition?.end.line).toBe(7);
  });

  it('lists headings, links, embeds and tags with positions, outside code', () => {
    expect(meta?.headings?.map((h) => [h.heading, h.level, h.position.start.line])).toEqual([
      ['Heading one', 1, 8],
      ['Second', 2, 14],
    ]);
    expect(meta?.links?.map((l) => [l.link, l.displayText, l.original])).toEqual([
      ['Other note#Part', 'the part', '[[Other note#Part|the part]]'],
      ['Folder/Note x.md', 'md', '[md](Folder/Note%20x.md)'],
    ]);
    const link = meta?.links?.[0];
    expect(note.slice(link?.position.start.offset, link?.position.end.offset)).toBe(link?.original);
    expect(meta?.embeds?.map((e) => e.link)).toEqual(['image.png']);
    expect(meta?.tags?.map((t) => t.tag)).toEqual(['#tag/sub']);
  });

  it('has no cache for files that are not Markdown, and none for missing paths', () => {
    expect(cache.getCache('data.txt')).toBeNull();
    expect(cache.getCache('missing.md')).toBeNull();
  });

  it('tallies resolved and unresolved links, and names files for linking', () => {
    expect(cache.resolvedLinks['n.md']).toEqual({ 'Other note.md': 1 });
    expect(cache.unresolvedLinks['n.md']).toEqual({ 'image.png': 1, 'Folder/Note x.md': 1 });
    const other = vault.getFileByPath('Other note.md');
    expect(other && cache.fileToLinktext(other, 'n.md')).toBe('Other note');
    expect(other && new FileManager(vault, cache).generateMarkdownLink(other, 'n.md', '#Part', 'alias')).toBe('[[Other note#Part|alias]]');
  });
});

describe('metadata events', () => {
  it('announces changed metadata after a modify, and the previous cache on delete', async () => {
    const { vault, cache } = setup({ 'a.md': 'old' });
    const changed = vi.fn<(file: TFile, data: string, cache: CachedMetadata) => void>();
    const deleted = vi.fn<(file: TFile, prevCache: CachedMetadata | null) => void>();
    cache.on('changed', changed);
    cache.on('deleted', deleted);
    const file = vault.getFileByPath('a.md');
    if (!(file instanceof TFile)) throw new Error('missing');
    await vault.modify(file, '# New');
    expect(changed.mock.lastCall?.slice(0, 2)).toEqual([file, '# New']);
    expect(changed.mock.lastCall?.[2].headings?.[0]?.heading).toBe('New');
    await vault.adapter.remove('a.md');
    expect(deleted.mock.lastCall?.[0]).toBe(file);
    expect(deleted.mock.lastCall?.[1]?.headings?.[0]?.heading).toBe('New');
  });
});

describe('getFrontMatterInfo', () => {
  it('locates the block by offsets', () => {
    const content = '---\na: 1\n---\nBody';
    expect(getFrontMatterInfo(content)).toEqual({ exists: true, frontmatter: 'a: 1\n', from: 4, to: 9, contentStart: 13 });
    expect(content.slice(13)).toBe('Body');
    expect(getFrontMatterInfo('No frontmatter\n---\n').exists).toBe(false);
    expect(getFrontMatterInfo('---\nunclosed').exists).toBe(false);
  });
});
