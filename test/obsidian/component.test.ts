// @vitest-environment jsdom
// Events and Component: what is registered is released on unload, children first.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Component, Events } from './index';
import { createTestApp, liveIntervalCount, liveListenerCount } from './testing';

afterEach(() => {
  vi.useRealTimers();
});

describe('Events', () => {
  it('delivers to handlers with their context until they are removed by callback or ref', () => {
    const events = new Events();
    const ctx = { calls: [] as unknown[] };
    const byCallback = vi.fn();
    const ref = events.on('ping', function (this: typeof ctx, value: unknown) {
      this.calls.push(value);
    }, ctx);
    events.on('ping', byCallback);
    events.trigger('ping', 1);
    events.off('ping', byCallback);
    events.offref(ref);
    events.trigger('ping', 2);
    expect(ctx.calls).toEqual([1]);
    expect(byCallback).toHaveBeenCalledTimes(1);
  });

  it('keeps delivering when a handler throws, and rethrows the error asynchronously', () => {
    vi.useFakeTimers();
    const events = new Events();
    const after = vi.fn();
    events.on('x', () => {
      throw new Error('boom');
    });
    events.on('x', after);
    events.trigger('x');
    expect(after).toHaveBeenCalled();
    expect(() => vi.runAllTimers()).toThrow('boom');
  });
});

class Recorder extends Component {
  constructor(
    private readonly name: string,
    private readonly log: string[],
  ) {
    super();
  }
  override onload(): void {
    this.log.push(`load ${this.name}`);
  }
  override onunload(): void {
    this.log.push(`unload ${this.name}`);
  }
}

describe('Component', () => {
  it('loads children with the parent, loads late children at once and unloads children first', () => {
    const log: string[] = [];
    const parent = new Recorder('parent', log);
    parent.addChild(new Recorder('early', log));
    parent.load();
    parent.load();
    const late = parent.addChild(new Recorder('late', log));
    parent.register(() => log.push('cleanup'));
    parent.unload();
    parent.unload();
    expect(log).toEqual(['load parent', 'load early', 'load late', 'unload late', 'unload early', 'cleanup', 'unload parent']);
    expect(late._loaded).toBe(false);
  });

  it('unloads a removed child', () => {
    const log: string[] = [];
    const parent = new Recorder('parent', log);
    const child = parent.addChild(new Recorder('child', log));
    parent.load();
    expect(parent.removeChild(child)).toBe(child);
    expect(log).toEqual(['load parent', 'load child', 'unload child']);
  });

  it('runs registered callbacks last-first and detaches registered events', () => {
    const events = new Events();
    const handler = vi.fn();
    const component = new Component();
    const order: number[] = [];
    component.load();
    component.registerEvent(events.on('x', handler));
    component.register(() => order.push(1));
    component.register(() => order.push(2));
    component.unload();
    events.trigger('x');
    expect(handler).not.toHaveBeenCalled();
    expect(order).toEqual([2, 1]);
  });

  it('really removes registered DOM listeners and clears registered intervals', () => {
    createTestApp();
    const component = new Component();
    component.load();
    const onKey = vi.fn();
    const onResize = vi.fn();
    const el = activeDocument.body.createDiv();
    component.registerDomEvent(activeDocument, 'keydown', onKey);
    component.registerDomEvent(window, 'resize', onResize);
    component.registerDomEvent(el, 'click', vi.fn());
    const id = component.registerInterval(window.setInterval(() => {}, 1000));
    expect(typeof id).not.toBe('undefined');
    expect(liveListenerCount()).toBe(3);
    expect(liveIntervalCount()).toBe(1);

    component.unload();
    activeDocument.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    window.dispatchEvent(new Event('resize'));
    expect(onKey).not.toHaveBeenCalled();
    expect(onResize).not.toHaveBeenCalled();
    expect(liveListenerCount()).toBe(0);
    expect(liveIntervalCount()).toBe(0);
    el.detach();
  });

  it('does not count the listeners jsdom adds for its own selector engine', () => {
    createTestApp();
    activeDocument.body.createDiv('probe').querySelector('span:hover');
    activeDocument.querySelector('.probe');
    expect(liveListenerCount()).toBe(0);
  });

  it('counts only listeners that can still fire', () => {
    createTestApp();
    const el = activeDocument.body.createDiv();
    el.addEventListener('click', () => {});
    activeDocument.addEventListener('keyup', () => {}, { once: true });
    const controller = new AbortController();
    window.addEventListener('focus', () => {}, { signal: controller.signal });
    expect(liveListenerCount()).toBe(3);
    el.detach(); // a detached element's listener is garbage, not a leak
    activeDocument.dispatchEvent(new KeyboardEvent('keyup'));
    controller.abort();
    expect(liveListenerCount()).toBe(0);
  });
});
