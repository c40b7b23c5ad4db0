// Hotkey scopes. Only one scope is active (the top of the Keymap's stack, or the app scope); a key
// the active scope does not handle falls through to its parent. A handler returning false gets
// the event's default prevented, as Obsidian documents.
import type { Modifier, PaneType } from 'obsidian';
import { Platform } from './platform';

export type KeymapEventListener = (evt: KeyboardEvent, ctx: KeymapContext) => unknown;

export interface KeymapInfo {
  modifiers: string | null;
  key: string | null;
}

export interface KeymapContext extends KeymapInfo {
  vkey: string;
}

export interface KeymapEventHandler extends KeymapInfo {
  scope: Scope;
  func: KeymapEventListener;
}

const EVENT_MODIFIERS: Exclude<Modifier, 'Mod'>[] = ['Ctrl', 'Meta', 'Shift', 'Alt'];

function pressed(evt: KeyboardEvent | MouseEvent | TouchEvent, modifier: Exclude<Modifier, 'Mod'>): boolean {
  switch (modifier) {
    case 'Ctrl':
      return evt.ctrlKey;
    case 'Meta':
      return evt.metaKey;
    case 'Shift':
      return evt.shiftKey;
    case 'Alt':
      return evt.altKey;
  }
}

/** `Mod` is Cmd on macOS and Ctrl elsewhere. */
function resolveMod(modifier: Modifier): Exclude<Modifier, 'Mod'> {
  if (modifier !== 'Mod') return modifier;
  return Platform.isMacOS ? 'Meta' : 'Ctrl';
}

export class Scope {
  readonly parent: Scope | undefined;
  readonly keys: KeymapEventHandler[] = [];

  constructor(parent?: Scope) {
    this.parent = parent;
  }

  /** `null` modifiers match any modifiers; a `null` key matches any key. */
  register(modifiers: Modifier[] | null, key: string | null, func: KeymapEventListener): KeymapEventHandler {
    const handler: KeymapEventHandler = { scope: this, modifiers: modifiers === null ? null : modifiers.join(','), key, func };
    this.keys.push(handler);
    return handler;
  }

  unregister(handler: KeymapEventHandler): void {
    const index = this.keys.indexOf(handler);
    if (index !== -1) this.keys.splice(index, 1);
  }

  /** Internal: offers the event to this scope, then to its parents. Returns whether one handled it. */
  handleKey(evt: KeyboardEvent): boolean {
    const handler = this.keys.find((h) => matches(h, evt));
    if (handler) {
      const ctx: KeymapContext = { modifiers: handler.modifiers, key: handler.key, vkey: evt.key };
      if (handler.func(evt, ctx) === false) evt.preventDefault();
      return true;
    }
    return this.parent?.handleKey(evt) ?? false;
  }
}

function matches(handler: KeymapEventHandler, evt: KeyboardEvent): boolean {
  if (handler.key !== null && handler.key.toLowerCase() !== evt.key.toLowerCase()) return false;
  if (handler.modifiers === null) return true;
  const wanted = new Set(handler.modifiers === '' ? [] : handler.modifiers.split(',').map((m) => resolveMod(m as Modifier)));
  return EVENT_MODIFIERS.every((m) => wanted.has(m) === pressed(evt, m));
}

export class Keymap {
  private readonly stack: Scope[] = [];

  constructor(private readonly rootScope: Scope) {}

  pushScope(scope: Scope): void {
    this.popScope(scope);
    this.stack.push(scope);
  }

  popScope(scope: Scope): void {
    const index = this.stack.indexOf(scope);
    if (index !== -1) this.stack.splice(index, 1);
  }

  /** Internal: the App feeds it every keydown of its document. */
  onKeyDown(evt: KeyboardEvent): boolean {
    return (this.stack[this.stack.length - 1] ?? this.rootScope).handleKey(evt);
  }

  static isModifier(evt: MouseEvent | TouchEvent | KeyboardEvent, modifier: Modifier): boolean {
    return pressed(evt, resolveMod(modifier));
  }

  /** 'tab' for Mod-click or middle click, 'split' with Alt too, 'window' with Alt+Shift too. */
  static isModEvent(evt?: MouseEvent | KeyboardEvent | TouchEvent | PointerEvent | null): PaneType | boolean {
    if (!evt) return false;
    const mod = Keymap.isModifier(evt, 'Mod');
    if (mod && evt.altKey && evt.shiftKey) return 'window';
    if (mod && evt.altKey) return 'split';
    if (mod) return 'tab';
    return 'button' in evt && evt.button === 1 ? 'tab' : false;
  }
}
