// @vitest-environment jsdom
// A new conversation with the real plugin against a loopback server speaking Ollama's protocol:
// the empty state (model, compaction, example prompts that fill the composer), the model picker
// in the chat header (the server's list, refreshable, saved as the setting), and what the user
// sees when the server cannot be reached.
import { describe, expect, it } from 'vitest';
import { selectOption, setPlatform } from '../obsidian/testing';
import { ollamaReply } from '../chat/helpers/harness';
import { examplePrompts } from '../../src/ui/empty-state';
import { describeServer } from '../../src/ui/connection';
import { parseCompactCommand } from '../../src/ui/composer';
import { input, modelList, startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle } = uiActions(() => h);
closeUiAfterEach(() => h);

const empty = (): HTMLElement | null => h.view().find('.compact-chat-empty');
const picker = (): HTMLSelectElement => h.view().find('select.compact-chat-model') as HTMLSelectElement;

describe('the empty state', () => {
  it('names the model and the server, says what compaction does, offers prompts about the open note that fill the composer', async () => {
    h = await startUi({}, { 'Projects/Garden plan.md': '# Garden plan' });
    const file = h.app.vault.getFileByPath('Projects/Garden plan.md');
    if (!file) throw new Error('no note');
    await h.app.workspace.getLeaf(false).openFile(file);
    await until(() => (empty()?.getText() ?? '').includes('[[Garden plan]]'));
    const el = empty();
    expect(el?.isShown()).toBe(true);
    expect(el?.find('.compact-chat-empty-model')?.getText()).toBe('Connected to llama3.1:8b through Ollama on this device.');
    expect(el?.find('.compact-chat-empty-compaction')?.getText()).toMatch(/^Long conversations keep working: past 6\.1k of the 8\.2k tokens .* summarised on this device, with no extra model call/);
    const prompts = el?.findAll('.compact-chat-example') ?? [];
    expect(prompts.map((p) => p.getText())).toEqual(examplePrompts('Garden plan'));

    prompts[1]?.click();
    expect(input(h).value).toBe('What questions does [[Garden plan]] leave open?');
    expect(document.activeElement).toBe(input(h));
    h.server.on('POST', '/api/chat', ollamaReply('Two questions.'));
    send(input(h).value);
    await idle();
    expect(empty()?.isShown()).toBe(false);
    // A new chat brings it back.
    await h.plugin.conversations.newChat();
    await until(() => empty()?.isShown() === true);
  });

  it('without a model says how to connect one and opens the settings', async () => {
    h = await startUi({ model: '' });
    const model = empty()?.find('.compact-chat-empty-model');
    expect(model?.getText()).toMatch(/^No model yet\. Ollama runs models on this device without a key/);
    let opened = 0;
    const setting = (h.app as unknown as { setting: { open(): void } }).setting;
    const original = setting.open.bind(setting);
    setting.open = () => {
      opened++;
      original();
    };
    model?.find('button.compact-chat-empty-settings')?.click();
    expect(opened).toBe(1);
  });

  it('when the server cannot be reached says so once, with its address once', async () => {
    h = await startUi();
    await h.server.close();
    h.view().find('[aria-label="Refresh the model list"]')?.click();
    await until(() => empty()?.find('.compact-chat-empty-model')?.hasClass('mod-warning') === true, 10_000);
    const text = empty()?.find('.compact-chat-empty-model')?.getText() ?? '';
    expect(text).toMatch(/^Could not connect to Ollama at http:\/\/127\.0\.0\.1:\d+ \([A-Z_]+\)\. Is Ollama running there\?/);
    expect(text.match(/127\.0\.0\.1/g)).toHaveLength(1);
    expect(text.match(/Could not/g)).toHaveLength(1);
    expect(picker().getAttr('aria-label')).toMatch(/^Model: Could not load the models: Could not connect/);
    // Restart so afterEach can close it again.
    h.server = await (await import('../providers/helpers/server')).ScriptedServer.start();
  });

  it('prompts about the vault when no note is open', () => {
    expect(examplePrompts(null)).toHaveLength(3);
    for (const prompt of examplePrompts(null)) expect(prompt).not.toContain('[[');
  });
});

describe('the model picker', () => {
  it('lists the server models with the one in use selected; picking one saves it; refresh asks again', async () => {
    h = await startUi();
    expect([...picker().options].map((o) => o.value)).toEqual(['llama3.1:8b']);
    h.server.on('GET', '/api/tags', modelList(['llama3.1:8b', 'qwen3:4b', 'gemma3:1b']));
    h.view().find('[aria-label="Refresh the model list"]')?.click();
    await until(() => picker().options.length === 3);
    expect(h.server.to('/api/tags')).toHaveLength(2);
    expect(picker().value).toBe('llama3.1:8b');

    selectOption(picker(), 'qwen3:4b');
    await until(() => (empty()?.find('.compact-chat-empty-model')?.getText() ?? '').includes('qwen3:4b'));
    expect(h.plugin.settings.model).toBe('qwen3:4b');
    h.server.on('POST', '/api/chat', ollamaReply('Hi.'));
    send('Hello');
    await idle();
    expect(h.server.to('/api/chat').map((r) => (JSON.parse(r.body) as { model: string }).model)).toEqual(['qwen3:4b']);
  });

  it('keeps a model the server does not list, marked, and loads the list again when the server changes', async () => {
    h = await startUi({ model: 'mistral:7b' });
    // startUi's list holds only the configured model; this server lists another.
    h.server.on('GET', '/api/tags', modelList(['llama3.1:8b']));
    h.view().find('[aria-label="Refresh the model list"]')?.click();
    await until(() => picker().hasClass('is-unlisted'));
    expect([...picker().options].map((o) => o.value)).toEqual(['mistral:7b', 'llama3.1:8b']);
    expect(empty()?.find('.compact-chat-empty-model')?.getText()).toContain('The server does not list this model');

    h.server.on('GET', '/api/tags', modelList(['mistral:7b']));
    h.plugin.settings.baseUrl = `${h.server.url}/`;
    await h.plugin.saveSettings();
    await until(() => h.server.to('/api/tags').length === 3 && !picker().hasClass('is-unlisted'));
  });
});

describe('connection and composer helpers', () => {
  it('names a server once: on this device, a remote address, or the hosted API', () => {
    expect(describeServer({ provider: 'ollama', baseUrl: 'http://localhost:11434', model: '' })).toBe('Ollama on this device');
    expect(describeServer({ provider: 'ollama', baseUrl: 'http://nas.local:11434', model: '' })).toBe('Ollama at http://nas.local:11434');
    expect(describeServer({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: '' })).toBe('Anthropic');
    expect(describeServer({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: '' })).toBe('OpenAI');
    expect(describeServer({ provider: 'openai', baseUrl: 'not a url', model: '' })).toBe('OpenAI-compatible at not a url');
  });

  it('reads /compact with and without a focus, and nothing else', () => {
    expect(parseCompactCommand('/compact')).toEqual({ focus: '' });
    expect(parseCompactCommand('  /Compact the budget\nand dates ')).toEqual({ focus: 'the budget\nand dates' });
    expect(parseCompactCommand('/compaction')).toBeNull();
    expect(parseCompactCommand('please /compact')).toBeNull();
  });

  it('on a phone the example prompts still fill the composer', async () => {
    h = await startUi();
    setPlatform({ isMobile: true, isPhone: true, isDesktop: false });
    empty()?.find('.compact-chat-example')?.click();
    expect(input(h).value).toBe(examplePrompts(null)[0]);
  });
});
