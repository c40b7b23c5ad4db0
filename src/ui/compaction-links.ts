// Links in the compaction panel: a record's references, files read/modified and restored notes,
// turned into what the panel renders. Internal links (notes, vault files) become
// `a.internal-link` with `data-href` (the view opens them with workspace.openLinkText and offers
// hover preview); URLs become plain external links; paths outside the vault stay text.
import type { App } from 'obsidian';
import type { Reference } from '../core/record';

export type PanelLink =
  | { kind: 'internal'; linktext: string; label: string; resolved: boolean }
  | { kind: 'external'; url: string; label: string }
  | { kind: 'text'; label: string };

/** The link a reference stands for. */
export function referenceLink(app: App, ref: Reference): PanelLink {
  switch (ref.kind) {
    case 'wikilink':
    case 'embed': {
      const m = /^!?\[\[([^|\]]*)(?:\|[^\]]*)?\]\]$/.exec(ref.text);
      const linktext = (m?.[1] ?? ref.text).trim();
      return internal(app, linktext, ref.text);
    }
    case 'markdown-link': {
      const m = /\]\(([^)]*)\)$/.exec(ref.text);
      const target = decode(m?.[1] ?? '');
      if (!target) return { kind: 'text', label: ref.text };
      return internal(app, target, ref.text);
    }
    case 'url':
      return /^https?:\/\//i.test(ref.text) ? { kind: 'external', url: ref.text, label: ref.text } : { kind: 'text', label: ref.text };
    case 'path':
      return pathLink(app, ref.text);
  }
}

/** A file path (files read or modified, a path mentioned): a link when the vault has that file. */
export function pathLink(app: App, path: string): PanelLink {
  const clean = path.replace(/^\.?\//, '');
  const file = app.vault.getFileByPath(clean) ?? app.metadataCache.getFirstLinkpathDest(clean, '');
  return file ? { kind: 'internal', linktext: file.path, label: path, resolved: true } : { kind: 'text', label: path };
}

function internal(app: App, linktext: string, label: string): PanelLink {
  const path = linktext.split('#')[0]?.split('^')[0] ?? '';
  const resolved = path === '' || app.metadataCache.getFirstLinkpathDest(path, '') !== null;
  return { kind: 'internal', linktext, label, resolved };
}

function decode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** Renders a link into `parent` (text only through text nodes). */
export function renderLink(parent: HTMLElement, link: PanelLink): HTMLElement {
  switch (link.kind) {
    case 'internal':
      return parent.createEl('a', {
        cls: `internal-link${link.resolved ? '' : ' is-unresolved'}`,
        text: link.label,
        attr: { 'data-href': link.linktext, href: link.linktext, 'aria-label': `Open ${link.linktext}`, 'data-tooltip-position': 'top' },
      });
    case 'external':
      return parent.createEl('a', { cls: 'external-link', text: link.label, attr: { href: link.url, rel: 'noopener', target: '_blank' } });
    case 'text':
      return parent.createEl('code', { cls: 'compact-chat-path', text: link.label });
  }
}
