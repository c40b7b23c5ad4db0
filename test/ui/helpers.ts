// Shared setup for the view and plugin tests: the real plugin under the obsidian test runtime,
// talking to a loopback server.
import { afterEach } from 'vitest';
import CompactChatPlugin from '../../src/main';
import { VIEW_TYPE_CHAT } from '../../src/ui/chat-view';
import type { App } from '../obsidian/index';
import { createTestApp, destroyTestApp, loadPlugin, pressKey, runCommand, typeInto } from '../obsidian/testing';
import { ScriptedServer, sentJson } from '../providers/helpers/server';
import { type OllamaBody, ollamaReply } from '../chat/helpers/harness';
import { VIEW_TYPE_COMPACTIONS } from '../../src/ui/compaction-panel';
import type { CompactChatSettings } from '../../src/chat/settings';

export interface UiHarness {
  app: App;
  plugin: CompactChatPlugin;
  server: ScriptedServer;
  /** The chat view's content element. */
  view(): HTMLElement;
}

export async function startUi(settings: Partial<CompactChatSettings> = {}, files: Record<string, string> = {}): Promise<UiHarness> {
  const server = await ScriptedServer.start();
  const app = createTestApp({ files });
  const plugin = await loadPlugin(CompactChatPlugin);
  Object.assign(plugin.settings, { baseUrl: server.url, model: 'llama3.1:8b', ...settings });
  await plugin.saveSettings();
  // The chat header's model picker asks the server for its models when the view opens.
  server.on('GET', '/api/tags', modelList(plugin.settings.model ? [plugin.settings.model] : []));
  runCommand(app, 'compact-chat:open-chat');
  await until(() => app.workspace.getLeavesOfType(VIEW_TYPE_CHAT).length === 1);
  const view = (): HTMLElement => {
    const leaf = app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0];
    if (!leaf) throw new Error('no chat view');
    return leaf.view.containerEl;
  };
  await until(() => view().find('.compact-chat-input') !== null);
  await until(() => server.to('/api/tags').length === 1 && view().find('.compact-chat-model-picker.is-loading') === null);
  return { app, plugin, server, view };
}

/** Settings under which only "Compact now" compacts (one exchange kept, no token or message
 * trigger in reach): the panel tests make their rounds by hand. */
export const MANUAL_COMPACTION: Partial<CompactChatSettings> = { keepExchanges: 1, keepTokens: 0, messageLimit: 0 };

/** Closes a harness: its app (the plugin and its views), then its server. */
export async function closeUi(h: UiHarness | undefined): Promise<void> {
  if (!h) return;
  await destroyTestApp(h.app);
  await h.server.close();
}

/** Closes the test file's current harness after each test. */
export function closeUiAfterEach(current: () => UiHarness | undefined): void {
  afterEach(() => closeUi(current()));
}

/** Ollama's `/api/tags` answer listing `models`. */
export function modelList(models: string[]): { headers: Record<string, string>; chunks: string[] } {
  return { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ models: models.map((name) => ({ name })) })] };
}

export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function input(h: UiHarness): HTMLTextAreaElement {
  return h.view().find('textarea.compact-chat-input') as HTMLTextAreaElement;
}

export function messages(h: UiHarness): HTMLElement[] {
  return h.view().findAll('.compact-chat-message');
}

export function button(el: HTMLElement | undefined, label: string): HTMLElement {
  const found = el?.find(`[aria-label="${label}"]`) ?? null;
  if (!found) throw new Error(`no "${label}" button`);
  return found;
}

/** The steps every view test repeats, bound to the test's current harness. */
export function uiActions(current: () => UiHarness): {
  send: (text: string) => void;
  idle: () => Promise<void>;
  bodies: () => OllamaBody[];
  notes: () => string[];
  noteText: (path: string) => string;
  say: (text: string, reply: string) => Promise<void>;
  openPanel: (ready?: string) => Promise<HTMLElement>;
} {
  const send = (text: string): void => {
    typeInto(input(current()), text);
    pressKey('Enter', { target: input(current()) });
  };
  const idle = (): Promise<void> => until(() => !current().plugin.session.busy && current().view().find('.compact-chat-send')?.getText() === 'Send');
  return {
    /** Types into the input box and presses Enter, as a user would. */
    send,
    /** Waits until no request is running and the Send button is back. */
    idle,
    /** Sends `text` with `reply` scripted as the model's answer, and waits for the turn to end. */
    say: async (text, reply) => {
      current().server.on('POST', '/api/chat', ollamaReply(reply));
      send(text);
      await until(() => current().plugin.session.busy || current().plugin.session.messages.some((m) => m.content === reply));
      await idle();
    },
    /** Opens the compaction panel by its command; resolves once `ready` is in it. */
    openPanel: async (ready = '.compact-chat-rounds') => {
      const h = current();
      runCommand(h.app, 'compact-chat:open-compaction-panel');
      await until(() => h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS).length === 1);
      const panel = (): HTMLElement | null => h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS)[0]?.view.containerEl ?? null;
      await until(() => panel()?.find(ready) !== null);
      return panel() as HTMLElement;
    },
    /** Every /api/chat request body the server received, in order. */
    bodies: () => current().server.to('/api/chat').map((r) => sentJson(r) as unknown as OllamaBody),
    /** The saved conversation notes, sorted. */
    notes: () =>
      current()
        .app.vault.getMarkdownFiles()
        .map((f) => f.path)
        .filter((p) => p.startsWith('Compact Chat/'))
        .sort(),
    /** A note's text as stored. */
    noteText: (path) => current().app.vault.adapter.peek(path) ?? '',
  };
}
