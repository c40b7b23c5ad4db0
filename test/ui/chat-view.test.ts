// @vitest-environment jsdom
// The chat view with the real plugin, against a loopback server speaking Ollama's protocol.
import { describe, expect, it } from 'vitest';
import { MarkdownView } from '../obsidian/index';
import { pressKey, setPlatform, typeInto } from '../obsidian/testing';
import { endlessReply, ollamaError, ollamaReply, systemOf } from '../chat/helpers/harness';
import { button, input, messages, startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle, bodies } = uiActions(() => h);
closeUiAfterEach(() => h);


describe('the chat view', () => {
  it('opens in the right sidebar and says why it cannot send without a model', async () => {
    h = await startUi({ model: '' });
    const leaf = h.app.workspace.getLeavesOfType('compact-chat-view')[0];
    expect(leaf?.getRoot()).toBe(h.app.workspace.rightSplit);
    expect(input(h).disabled).toBe(true);
    expect(h.view().find('.compact-chat-disabled-reason')?.getText()).toMatch(/choose a model/i);
    h.plugin.settings.model = 'llama3.1:8b';
    await h.plugin.saveSettings();
    expect(input(h).disabled).toBe(false);
    expect(h.view().find('.compact-chat-disabled-reason')?.getText()).toBe('');
  });

  it('sends on Enter (Shift+Enter does not), streams the reply in and renders it as Markdown with clickable links', async () => {
    h = await startUi({}, { 'Projects/Alpha.md': '# Alpha' });
    h.server.on('POST', '/api/chat', { ...ollamaReply('See **[[Alpha]]** for the plan. ' + 'More words arrive slowly. '.repeat(6)), delayMs: 25 });
    typeInto(input(h), 'Where is the plan?');
    const shifted = pressKey('Enter', { target: input(h), shift: true });
    expect(shifted.defaultPrevented).toBe(false);
    expect(h.server.to('/api/chat')).toHaveLength(0);
    pressKey('Enter', { target: input(h) });
    expect(input(h).value).toBe('');

    // Mid-stream: the reply is already on screen, marked as streaming.
    await until(() => messages(h)[1]?.hasClass('is-streaming') === true && (messages(h)[1]?.getText() ?? '').includes('plan'));
    expect(h.view().find('.compact-chat-send')?.getText()).toBe('Stop');
    await idle();

    const [user, reply] = messages(h);
    expect(user?.hasClass('mod-user')).toBe(true);
    expect(user?.getText()).toContain('Where is the plan?');
    expect(reply?.hasClass('is-streaming')).toBe(false);
    expect(reply?.find('strong')).not.toBeNull();
    const link = reply?.find('a.internal-link');
    expect(link?.getAttr('data-href')).toBe('Alpha');
    link?.click();
    await until(() => h.app.workspace.getActiveFile()?.path === 'Projects/Alpha.md');
  });

  it('stops mid-stream: the partial reply stays, marked as stopped', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', endlessReply('Partial answer'));
    send('Tell me a long story');
    await until(() => (messages(h)[1]?.getText() ?? '').includes('Partial answer'));
    h.view().find('.compact-chat-send')?.click();
    await idle();
    const reply = messages(h)[1];
    expect(reply?.hasClass('is-stopped')).toBe(true);
    expect(reply?.getText()).toContain('Partial answer');
    expect(reply?.find('.compact-chat-message-mark')?.getText()).toMatch(/stopped/i);
  });

  it('regenerates a reply and edits-and-resends a user message', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', ollamaReply('First.'), ollamaReply('Second.'), ollamaReply('Third.'));
    send('Question');
    await idle();
    button(messages(h)[1], 'Regenerate').click();
    await idle();
    expect(messages(h).map((m) => m.find('.compact-chat-message-body')?.getText())).toEqual(['Question', 'Second.']);

    button(messages(h)[0], 'Edit and resend').click();
    const area = messages(h)[0]?.find('textarea.compact-chat-edit-input') as HTMLTextAreaElement;
    expect(area.value).toBe('Question');
    typeInto(area, 'Better question');
    pressKey('Enter', { target: area });
    await until(() => messages(h).length === 2 && messages(h)[1]?.getText().includes('Third.') === true);
    await idle();
    expect(messages(h).map((m) => m.find('.compact-chat-message-body')?.getText())).toEqual(['Better question', 'Third.']);
    expect(bodies()[2]?.messages.slice(1)).toEqual([{ role: 'user', content: 'Better question' }]);
  });

  it('shows a provider error in the conversation with a retry button', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', ollamaError(404, "model 'llama3.1:8b' not found, try pulling it first"), ollamaReply('Back again.'));
    h.server.on('GET', '/api/tags', { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ models: [{ name: 'qwen3:4b' }] })] });
    send('Hi');
    await idle();
    const failed = messages(h)[1];
    expect(failed?.hasClass('is-error')).toBe(true);
    expect(failed?.find('.compact-chat-error-text')?.getText()).toMatch(/llama3\.1:8b/);
    expect(failed?.find('.compact-chat-error-models')?.getText()).toContain('qwen3:4b');
    failed?.find('button.compact-chat-retry')?.click();
    await until(() => messages(h).length === 2 && messages(h)[1]?.getText().includes('Back again.') === true);
    expect(h.view().find('.is-error')).toBeNull();
  });

  it('copies and inserts a reply into the active note at the cursor', async () => {
    h = await startUi({}, { 'Draft.md': 'Start\nEnd' });
    const file = h.app.vault.getFileByPath('Draft.md');
    if (!file) throw new Error('no file');
    await h.app.workspace.getLeaf(false).openFile(file);
    const editor = h.app.workspace.getActiveViewOfType(MarkdownView)?.editor;
    editor?.setCursor({ line: 1, ch: 0 });
    h.server.on('POST', '/api/chat', ollamaReply('Inserted text. '));
    send('Write something');
    await idle();
    // The sidebar has focus now; the note is still the one to insert into.
    messages(h)[1]?.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    button(messages(h)[1], 'Insert into the active note').click();
    expect(editor?.getValue()).toBe('Start\nInserted text. End');

    let copied = '';
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: (t: string) => Promise.resolve(void (copied = t)) }, configurable: true });
    button(messages(h)[1], 'Copy').click();
    await until(() => copied === 'Inserted text. ');
  });

  it('keeps the token meter visible, with the compaction point and a breakdown', async () => {
    h = await startUi({ contextWindowOverride: 4000, replyReserve: 500, triggerPercent: 50 });
    const meter = h.view().find('.compact-chat-meter');
    expect(meter?.find('.compact-chat-meter-label')?.getText()).toMatch(/\/ 4k tokens · compacts at 2k/);
    expect(meter?.find('.compact-chat-meter-mark')?.style.getPropertyValue('--compact-chat-mark')).toBe('50.0%');
    h.server.on('POST', '/api/chat', ollamaReply('Ok.', { promptEvalCount: 1900 }));
    send('Hi');
    await idle();
    expect(meter?.hasClass('is-near')).toBe(true);
    const tooltip = meter?.getAttr('aria-label') ?? '';
    expect(tooltip).toContain('System prompt:');
    expect(tooltip).toContain('Previous context:');
    expect(tooltip).toContain('Tool results:');
    expect(tooltip).toContain('Attached notes:');
    expect(tooltip).toMatch(/Reported by the provider: 1,900/);
  });

  it('with a small window compacts a long conversation: the request carries <previous_context> and the restored notes, the view every message', async () => {
    h = await startUi(
      // 4,000 tokens: the vault tools' definitions take ~480, and a compaction lands at half the prompt.
      { contextWindowOverride: 4000, replyReserve: 200, triggerPercent: 40, keepExchanges: 1, keepTokens: 0, contextBudget: 250, restoredNotesBudget: 300 },
      { 'Projects/Alpha.md': '# Alpha\nAlpha plan: ship version two by Friday.' },
    );
    const para = (t: string): string => `We discussed ${t} at length, and we will check the details of ${t} again next week with everyone. `.repeat(3);
    const topics = ['the [[Alpha]] project', 'the budget', 'the launch date', 'the team', 'the risks', 'the marketing', 'the retro', 'the pricing', 'the roadmap', 'the hiring', 'the support'];
    for (const topic of topics) h.server.on('POST', '/api/chat', ollamaReply(para(topic)));
    for (const topic of topics) {
      send(`Let us talk about ${topic}. ${para(topic)}`);
      await idle();
    }
    const compacted = bodies().find((b) => systemOf(b).includes('<previous_context>'));
    expect(compacted).toBeDefined();
    expect(systemOf(compacted)).toContain('Alpha plan: ship version two by Friday.');
    expect(h.plugin.session.messages).toHaveLength(topics.length * 2);
    expect(messages(h)).toHaveLength(topics.length * 2);
    expect(h.view().find('.compact-chat-notice')?.getText()).toMatch(/\d+ messages summarised; [\d,]+ → [\d,]+ tokens/);
    expect(h.plugin.session.compactions.length).toBeGreaterThan(0);
  });

  it('asks before sending a message too long for the window: shorten keeps it in the input box, send trimmed sends what fits', async () => {
    h = await startUi({ contextWindowOverride: 4096 });
    h.server.on('POST', '/api/chat', ollamaReply('Read the start.'));
    const paste = Array.from({ length: 600 }, (_, i) => `Log line ${i}: the request took longer than expected.`).join('\n');
    const modalButton = (label: string): HTMLElement | undefined => [...document.querySelectorAll<HTMLElement>('.modal button')].find((b) => b.textContent === label);
    send(paste);
    await until(() => modalButton('Shorten it') !== undefined);
    expect(document.querySelector('.modal')?.textContent).toMatch(/Message too long for the context window/);
    modalButton('Shorten it')?.click();
    await until(() => input(h).value === paste);
    expect(bodies()).toHaveLength(0);

    send(paste);
    await until(() => modalButton('Send trimmed') !== undefined);
    modalButton('Send trimmed')?.click();
    await until(() => bodies().length === 1);
    await idle();
    const sent = bodies()[0]?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(sent).toMatch(/Trimmed to fit the context window/);
    expect(sent.length).toBeLessThan(paste.length);
  });

  it('streams a reply without re-rendering the other messages', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', ollamaReply('First **reply**.'), { ...ollamaReply('Second reply, streamed in many small pieces. '.repeat(4)), delayMs: 15 });
    send('One');
    await idle();
    const before = messages(h).map((m) => m.find('.compact-chat-markdown'));
    send('Two');
    await until(() => messages(h).length === 4);
    await idle();
    const after = messages(h).map((m) => m.find('.compact-chat-markdown'));
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
  });

  it('keeps a long conversation cheap: only the latest messages are in the DOM until asked for', async () => {
    setPlatform({ isMobile: true, isDesktop: false });
    h = await startUi();
    for (let i = 0; i < 35; i++) h.server.on('POST', '/api/chat', ollamaReply(`Answer ${i}.`));
    for (let i = 0; i < 35; i++) await h.plugin.session.send(`Question ${i}`);
    await until(() => messages(h).length === 60);
    const earlier = h.view().find('.compact-chat-earlier');
    expect(earlier?.isShown()).toBe(true);
    expect(messages(h)[0]?.getText()).toContain('Question 5');
    earlier?.click();
    expect(messages(h)).toHaveLength(70);
    await until(() => (messages(h)[0]?.getText() ?? '').includes('Question 0'));
    expect(earlier?.isShown()).toBe(false);
  });
});
