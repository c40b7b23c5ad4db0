// The renderer's raw-HTML mode. Obsidian does not show HTML in Markdown as text: it renders it after
// sanitising with DOMPurify, which drops <script>, event handlers and javascript: URLs but keeps
// <img> (which loads at once) and <iframe> (help page "HTML content": "Obsidian supports HTML…
// for security reasons, some HTML is sanitised", and "Embed web pages" with <iframe>). Tests that
// must see what a user would switch to this mode with testing.setMarkdownHtml('obsidian'); the
// default ('text') shows HTML as text, so a plugin's own neutralising is visible either way.
//
// Model: after the Markdown pass, each text node outside code that holds a tag is parsed as HTML in
// an inert document (nothing loads or runs there), cleaned as DOMPurify does, then moved into the
// live document, where an <img> starts loading. A `\<` escape is not told apart (a known gap).

export type MarkdownHtmlMode = 'text' | 'obsidian';

let mode: MarkdownHtmlMode = 'text';

export function setMarkdownHtmlMode(next: MarkdownHtmlMode): void {
  mode = next;
}

export function markdownHtmlMode(): MarkdownHtmlMode {
  return mode;
}

const TAG = /<\/?[a-z][^>]*>|<!--/i;
const FORBIDDEN = 'script, style, object, embed, base, meta, link, form';
const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'action', 'formaction'];

/** Replaces text nodes that hold HTML with the sanitised elements, as Obsidian renders them. */
export function renderRawHtml(root: DocumentFragment | HTMLElement): void {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (TAG.test(text.data) && !text.parentElement?.closest('code, pre')) texts.push(text);
  }
  for (const text of texts) {
    const parsed = new DOMParser().parseFromString(`<body>${text.data}</body>`, 'text/html').body;
    sanitise(parsed);
    const nodes = [...parsed.childNodes].map((n) => doc.importNode(n, true));
    text.replaceWith(...nodes);
  }
}

/** What DOMPurify's defaults remove: executable elements, on* handlers, script URLs. */
function sanitise(body: HTMLElement): void {
  for (const el of [...body.querySelectorAll(FORBIDDEN)]) el.remove();
  for (const el of [...body.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const scripted = URL_ATTRIBUTES.includes(name) && /^\s*(javascript|vbscript):/i.test(attr.value);
      if (name.startsWith('on') || scripted) el.removeAttribute(attr.name);
    }
  }
}
