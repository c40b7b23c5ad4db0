// @vitest-environment jsdom
// The DOM helpers Obsidian adds to the platform, as obsidian.d.ts declares them.
import { describe, expect, it, vi } from 'vitest';
import { installDomHelpers } from './testing';
import './index';

describe('createEl and DomElementInfo', () => {
  it('applies cls, text, attr, title and the form properties', () => {
    const input = createEl('input', {
      cls: ['a', 'b'],
      attr: { 'data-x': 1, 'aria-hidden': true, removed: null },
      title: 'Tip',
      value: 'v',
      type: 'password',
      placeholder: 'Type here',
    });
    expect(input.className).toBe('a b');
    expect(input.getAttr('data-x')).toBe('1');
    expect(input.getAttr('aria-hidden')).toBe('true');
    expect(input.hasAttribute('removed')).toBe(false);
    expect(input.title).toBe('Tip');
    expect(input.value).toBe('v');
    expect(input.type).toBe('password');
    expect(input.placeholder).toBe('Type here');
    const link = createEl('a', { cls: 'x  y', text: 'Go', href: 'https://example.com/' });
    expect(link.className).toBe('x y');
    expect(link.getAttr('href')).toBe('https://example.com/');
    expect(link.getText()).toBe('Go');
  });

  it('takes a string as the class, appends to the node it is called on, and honours prepend', () => {
    const parent = createDiv();
    const first = parent.createSpan('first');
    const second = parent.createEl('b', { text: 'Bold' });
    const top = parent.createDiv({ cls: 'top', prepend: true });
    expect([...parent.children]).toEqual([top, first, second]);
    expect(first.className).toBe('first');
  });

  it('attaches the global form to `parent` and runs the callback with the element', () => {
    const parent = createDiv();
    const callback = vi.fn();
    const el = createEl('p', { parent, text: 'X' }, callback);
    expect(el.parentElement).toBe(parent);
    expect(callback).toHaveBeenCalledWith(el);
  });

  it('never parses text as HTML', () => {
    const el = createDiv({ text: '<img src=x onerror=alert(1)><b>bold</b>' });
    expect(el.children).toHaveLength(0);
    expect(el.getText()).toBe('<img src=x onerror=alert(1)><b>bold</b>');
    el.setText('<script>alert(1)</script>');
    expect(el.querySelector('script')).toBeNull();
  });

  it('accepts a DocumentFragment as text', () => {
    const fragment = createFragment((f) => {
      f.appendText('a ');
      f.createEl('strong', { text: 'B' });
    });
    const el = createDiv({ text: fragment });
    expect(el.innerHTML).toBe('a <strong>B</strong>');
    el.setText(createFragment((f) => f.createSpan({ text: 'C' })));
    expect(el.innerHTML).toBe('<span>C</span>');
  });

  it('creates SVG elements in the SVG namespace', () => {
    const svg = createSvg('svg', { cls: 'icon', attr: { viewBox: '0 0 24 24' } });
    const path = svg.createSvg('path', { attr: { d: 'M0 0' } });
    expect(svg.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(svg.hasClass('icon')).toBe(true);
    expect(path.parentNode).toBe(svg);
  });
});

describe('Node and Element helpers', () => {
  it('empties, detaches, inserts after and finds its children', () => {
    const list = createEl('ul');
    const a = list.createEl('li', { text: 'A' });
    const c = list.createEl('li', { text: 'C' });
    const b = list.insertAfter(createEl('li', { text: 'B' }), a);
    expect(list.getText()).toBe('ABC');
    expect(list.indexOf(c)).toBe(2);
    expect(list.find('li')).toBe(a);
    expect(list.findAll('li')).toEqual([a, b, c]);
    expect(list.findAllSelf('ul, li')).toEqual([list, a, b, c]);
    b.detach();
    expect(list.getText()).toBe('AC');
    list.setChildrenInPlace([c, a]);
    expect(list.getText()).toBe('CA');
    list.appendText('!');
    list.empty();
    expect(list.childNodes).toHaveLength(0);
  });

  it('manages classes and attributes', () => {
    const el = createDiv();
    el.addClass('a', 'b');
    el.addClasses(['c']);
    el.removeClass('a');
    el.toggleClass(['d', 'e'], true);
    el.toggleClass('b', false);
    expect(el.className).toBe('c d e');
    el.removeClasses(['d', 'e']);
    expect(el.hasClass('c')).toBe(true);
    el.setAttrs({ role: 'button', tabindex: 0 });
    expect(el.getAttr('tabindex')).toBe('0');
    el.setAttr('role', null);
    expect(el.getAttr('role')).toBeNull();
  });

  it('knows its document and window, and matches parents up to a bound', () => {
    const outer = activeDocument.body.createDiv('outer');
    const inner = outer.createDiv('inner').createSpan();
    expect(inner.doc).toBe(document);
    expect(inner.win).toBe(window);
    expect(inner.matchParent('.outer')).toBe(outer);
    expect(inner.matchParent('.outer', outer)).toBeNull();
    outer.detach();
  });

  it('checks instanceOf', () => {
    const el = createEl('input');
    expect(el.instanceOf(HTMLInputElement)).toBe(true);
    expect(el.instanceOf(HTMLDivElement)).toBe(false);
  });

  it('shows, hides and reports visibility through ancestors', () => {
    const parent = activeDocument.body.createDiv();
    const child = parent.createDiv();
    expect(child.isShown()).toBe(true);
    parent.hide();
    expect(child.isShown()).toBe(false);
    parent.show();
    child.toggle(false);
    expect(child.isShown()).toBe(false);
    child.toggle(true);
    expect(child.isShown()).toBe(true);
    child.detach();
    expect(child.isShown()).toBe(false);
    parent.detach();
  });

  it('sets styles and custom properties', () => {
    const el = createDiv();
    el.setCssStyles({ backgroundColor: 'red' });
    el.setCssProps({ '--size': '4px' });
    expect(el.style.backgroundColor).toBe('red');
    expect(el.style.getPropertyValue('--size')).toBe('4px');
  });

  it('fires onClickEvent for primary and middle clicks', () => {
    const el = createDiv();
    const listener = vi.fn();
    el.onClickEvent(listener);
    el.dispatchEvent(new MouseEvent('click'));
    el.dispatchEvent(new MouseEvent('auxclick', { button: 1 }));
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('delegates events with on/off', () => {
    const list = createDiv();
    const item = list.createDiv('item').createSpan({ text: 'X' });
    const listener = vi.fn();
    list.on('click', '.item', listener);
    item.click();
    expect(listener).toHaveBeenCalledWith(expect.any(MouseEvent), item.parentElement);
    list.off('click', '.item', listener);
    item.click();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('globals and built-in extensions', () => {
  it('provides the active window/document, sleep and nextFrame', async () => {
    expect(activeWindow).toBe(window);
    expect(activeDocument).toBe(document);
    await sleep(1);
    await nextFrame();
    expect(fish('body')).toBe(document.body);
  });

  it('adds Obsidian\'s Array, String and Math extensions without making them enumerable', () => {
    const values = [3, 1, 3];
    expect(values.first()).toBe(3);
    expect(values.last()).toBe(3);
    expect(values.contains(1)).toBe(true);
    expect(values.unique()).toEqual([3, 1]);
    values.remove(3);
    expect(values).toEqual([1, 3]);
    expect(Object.keys(Array.prototype)).not.toContain('last');
    expect('{0} of {1}'.format('a', 'b')).toBe('a of b');
    expect('abc'.contains('b')).toBe(true);
    expect(Math.clamp(5, 0, 3)).toBe(3);
    expect(Object.isEmpty({})).toBe(true);
  });

  it('installs once per window', () => {
    const createElOf = (): unknown => Object.getOwnPropertyDescriptor(Node.prototype, 'createEl')?.value;
    const before = createElOf();
    installDomHelpers(window);
    expect(createElOf()).toBe(before);
  });
});
