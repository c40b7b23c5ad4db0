// What the harness page exposes as `window.harness`, for the e2e suite, the UI bench and a
// developer's console. Types only; harness/page.ts implements it.
import type CompactChatPlugin from '../src/main';
import type * as obsidian from '../test/obsidian/index';

export type Theme = 'light' | 'dark';

export interface HarnessApi {
  /** The runtime's App (test/obsidian), as the plugin sees it. */
  app: obsidian.App;
  /** The plugin instance built from main.js. */
  plugin: CompactChatPlugin;
  /** The obsidian module main.js was given (the same runtime the unit tests use). */
  obsidian: typeof obsidian;
  /** Uncaught errors and rejections seen by the page. */
  errors: string[];
  setTheme(theme: Theme): void;
  /** Merges into the plugin's settings and saves them, as the settings tab would. */
  configure(settings: Record<string, unknown>): Promise<void>;
  /** Runs the plugin's "Open chat" command and waits for the view's composer. */
  openChat(): Promise<HTMLElement>;
  /** Closes every chat view (the session stays with the plugin). */
  closeChat(): void;
  /** Runs a command by its full id; false when it is unknown or unavailable. */
  runCommand(id: string): boolean;
}

/** The page's query parameters (all optional). */
export interface PageParams {
  /** Provider base URL (Ollama protocol); default: the harness's own /ollama endpoint. */
  ollama?: string;
  /** Model name; default: the harness demo model. */
  model?: string;
  theme?: Theme;
  /** `0`: do not open the chat view at start. */
  chat?: string;
}

declare global {
  interface Window {
    harness?: HarnessApi;
  }
}
