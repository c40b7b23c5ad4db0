// @vitest-environment jsdom
// MarkdownRenderer: Obsidian's element shapes, built without ever parsing HTML.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type App, Component, MarkdownRenderChild, MarkdownRenderer } from './index';
import { createTestApp, destroyTestApp, liveListenerCount, setMarkdownHtml } from './testing';

let app: App;
let owner: Component;

async function render(markdown: string, sourcePath = 'notes/Source.md'): Promise<HTMLElement> {
  const el = activeDocument.body.createDiv();
  await MarkdownRenderer.render(app, markdown, el, sourcePath, owner);
  return el;
}

function setup(files: Record<string, string> = {}): void {
  app = createTestApp({ files });
  owner = new Component();
  owner.load();
}

afterEach(async () => {
  owner.unload();
  await destroyTestApp(app);
});

describe('blocks', () => {
  it('renders headings, paragraphs with line breaks, rules and quotes', async () => {
    setup();
    const el = await render('# Title\n\nFirst line\nsecond line\n\n---\n\n> Quoted\n> **text**\n\n###### Six ##');
    expect(el.innerHTML).toBe(
      '<h1 data-heading="Title">Title</h1>' +
        '<p>First line<br>second line</p>' +
        '<hr>' +
        '<blockquote><p>Quoted<br><strong>text</strong></p></blockquote>' +
        '<h6 data-heading="Six">Six</h6>',
    );
  });

  it('renders fenced code verbatim with its language and a copy button', async () => {
    setup();
    const el = await render('```ts\nconst a = "<b>" && 1 < 2;\n  **not bold**\n```\n~~~\nplain\n~~~');
    const [ts, plain] = el.findAll('pre');
    expect(ts?.hasClass('language-ts')).toBe(true);
    expect(ts?.find('code')?.className).toBe('language-ts');
    expect(ts?.find('code')?.getText()).toBe('const a = "<b>" && 1 < 2;\n  **not bold**');
    expect(ts?.find('strong')).toBeNull();
    expect(ts?.find('button.copy-code-button')).not.toBeNull();
    expect(plain?.find('code')?.className).toBe('');
  });

  it('renders nested, ordered and task lists', async () => {
    setup();
    const el = await render('- one\n  - nested\n- two\n\n3. three\n4. four\n\n- [ ] open\n- [x] done');
    const [bullets, numbers, tasks] = el.children;
    expect(bullets?.outerHTML).toBe('<ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul>');
    expect(numbers?.getAttr('start')).toBe('3');
    expect(numbers?.findAll('li').map((li) => li.getText())).toEqual(['three', 'four']);
    const [open, done] = tasks?.findAll('li') ?? [];
    expect(open?.getAttr('data-task')).toBe(' ');
    expect(done?.hasClass('is-checked')).toBe(true);
    expect(done?.find('input.task-list-item-checkbox')).toMatchObject({ checked: true });
    expect(done?.getText()).toBe('done');
  });

  it('keeps a loose list together and reads one-line triple backticks as inline code', async () => {
    setup();
    const el = await render('- a\n\n- b\n\n```x``` done');
    expect(el.innerHTML).toBe('<ul><li>a</li><li>b</li></ul><p><code>x</code> done</p>');
  });

  it('renders tables with alignment', async () => {
    setup();
    const el = await render('| Name | Tokens |\n|:---|---:|\n| a \\| b | 12 |');
    expect(el.findAll('th').map((th) => th.getText())).toEqual(['Name', 'Tokens']);
    const cells = el.findAll('td');
    expect(cells.map((td) => td.getText())).toEqual(['a | b', '12']);
    expect(cells[1]?.style.textAlign).toBe('right');
  });
});

describe('inline', () => {
  it('renders emphasis, code, strikethrough and highlights, leaving intraword underscores alone', async () => {
    setup();
    const el = await render('**bold** *it* ***both*** `a*b*` ~~old~~ ==hi== snake_case_name \\*lit\\*');
    expect(el.innerHTML).toBe(
      '<p><strong>bold</strong> <em>it</em> <strong><em>both</em></strong> <code>a*b*</code> <del>old</del> <mark>hi</mark> snake_case_name *lit*</p>',
    );
  });

  it('renders wikilinks as internal links with data-href, aliases, subpaths and unresolved marks', async () => {
    setup({ 'notes/Target.md': '', 'notes/Source.md': '' });
    const el = await render('[[Target]] [[Target|the target]] [[Target#Part two]] [[Target#^abc123]] [[#Local]] [[Missing]]');
    const links = el.findAll('a.internal-link');
    expect(links.map((a) => [a.getAttr('data-href'), a.getAttr('href'), a.getText()])).toEqual([
      ['Target', 'Target', 'Target'],
      ['Target', 'Target', 'the target'],
      ['Target#Part two', 'Target#Part two', 'Target > Part two'],
      ['Target#^abc123', 'Target#^abc123', 'Target > ^abc123'],
      ['#Local', '#Local', 'Local'],
      ['Missing', 'Missing', 'Missing'],
    ]);
    expect(links.map((a) => a.hasClass('is-unresolved'))).toEqual([false, false, false, false, false, true]);
    expect(links[0]?.getAttr('target')).toBe('_blank');
  });

  it('renders embeds, Markdown links, bare URLs and tags', async () => {
    setup({ 'notes/Source.md': '' });
    const el = await render('![[diagram.png|A diagram]] [site](https://example.com) [note](Other%20note.md) https://obsidian.md. #tag/sub');
    expect(el.find('span.internal-embed')?.getAttr('src')).toBe('diagram.png');
    expect(el.find('span.internal-embed')?.getAttr('alt')).toBe('A diagram');
    const external = el.findAll('a.external-link');
    expect(external.map((a) => [a.getAttr('href'), a.getText()])).toEqual([
      ['https://example.com', 'site'],
      ['https://obsidian.md', 'https://obsidian.md'],
    ]);
    expect(external[0]?.getAttr('rel')).toBe('noopener nofollow');
    expect(el.find('a.internal-link')?.getAttr('data-href')).toBe('Other note.md');
    expect(el.find('a.tag')?.getText()).toBe('#tag/sub');
  });

  it('shows HTML and unsafe link schemes as text, never as markup', async () => {
    setup();
    const el = await render('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)"> <b>x</b>\n\n[click](javascript:alert(1)) ![i](javascript:alert(1))');
    expect(el.querySelector('script, img, b')).toBeNull();
    expect(el.findAll('a')).toHaveLength(0);
    expect(el.getText()).toContain('<script>alert(1)</script>');
    expect(el.getText()).toContain('<img src=x onerror="alert(1)"> <b>x</b>');
    expect(el.getText()).toContain('[click](javascript:alert(1))');
  });
});

describe('raw HTML in the obsidian mode', () => {
  it('renders sanitised HTML as Obsidian does: images and iframes kept, scripts and handlers dropped', async () => {
    setup();
    setMarkdownHtml('obsidian');
    const el = await render('<img src="https://host.example/x.png" onerror="alert(1)"> <b>bold</b>\n\n<iframe src="https://host.example/f"></iframe>\n\n<script>alert(1)</script>\n\n<a href="javascript:alert(1)">x</a> `<i>code</i>`');
    expect(el.find('img')?.getAttribute('src')).toBe('https://host.example/x.png');
    expect(el.find('img')?.hasAttribute('onerror')).toBe(false);
    expect(el.find('b')?.getText()).toBe('bold');
    expect(el.find('iframe')?.getAttribute('src')).toBe('https://host.example/f');
    expect(el.querySelector('script')).toBeNull();
    expect(el.find('a')?.hasAttribute('href')).toBe(false);
    expect(el.find('code')?.getText()).toBe('<i>code</i>');
  });

  it('goes back to HTML as text for the next test app', async () => {
    setup();
    setMarkdownHtml('obsidian');
    setup();
    const el = await render('<b>x</b>');
    expect(el.querySelector('b')).toBeNull();
  });
});

describe('lifecycle', () => {
  it('adds a render child to the component and releases the copy buttons with it', async () => {
    setup();
    const child = new Component();
    owner.addChild(child);
    const el = activeDocument.body.createDiv();
    await MarkdownRenderer.render(app, '```\ncode\n```', el, '', child);
    expect(child._children[0]).toBeInstanceOf(MarkdownRenderChild);
    expect(liveListenerCount()).toBe(1);
    child.unload();
    expect(liveListenerCount()).toBe(0);
  });

  it('leaves link clicks to the view, as Obsidian does', async () => {
    setup({ 'notes/Target.md': '' });
    const open = vi.spyOn(app.workspace, 'openLinkText');
    const el = await render('[[Target]]');
    el.find('a.internal-link')?.click();
    expect(open).not.toHaveBeenCalled();
  });

  it('renders without an app through the older renderMarkdown', async () => {
    setup();
    const el = createDiv();
    await MarkdownRenderer.renderMarkdown('[[Anything]]', el, '', owner);
    expect(el.find('a.internal-link')?.hasClass('is-unresolved')).toBe(false);
  });
});
