// @vitest-environment jsdom
// One chat in two views (issue 31): while a reply streams, the other view says so (send held, with
// the reason), and a message typed there stays in its box — Enter does not swallow it — to be sent
// once the reply is done.
import { describe, expect, it } from 'vitest';
import { VIEW_TYPE_CHAT } from '../../src/ui/chat-view';
import { ollamaReply } from '../chat/helpers/harness';
import { pressKey, typeInto } from '../obsidian/testing';
import { closeUiAfterEach, startUi, type UiHarness, uiActions, until } from './helpers';

let h: UiHarness;
const { idle } = uiActions(() => h);
closeUiAfterEach(() => h);

describe('two views of one chat', () => {
  it('the other view shows the reply is being written, keeps what is typed there, and sends it after', async () => {
    h = await startUi();
    const first = h.view();
    const leaf = h.app.workspace.getLeaf('tab');
    await leaf.setViewState({ type: VIEW_TYPE_CHAT });
    const views = (): HTMLElement[] => h.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT).map((l) => l.view.containerEl);
    await until(() => views().length === 2 && views()[1]?.find('.compact-chat-input') !== null);
    const other = views().find((v) => v !== first) as HTMLElement;
    const firstBox = first.find('textarea.compact-chat-input') as HTMLTextAreaElement;
    // The reason line as shown (hidden by its own display; the other view's tab may be in the background).
    const reason = (view: HTMLElement): string => {
      const el = view.find('.compact-chat-disabled-reason');
      return el && el.style.display !== 'none' ? el.getText() : '';
    };

    const words = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    h.server.on('POST', '/api/chat', ollamaReply(words, { delayMs: 10 }), ollamaReply('Second answer.'));
    typeInto(firstBox, 'First question');
    pressKey('Enter', { target: firstBox });
    await until(() => h.plugin.session.busy);
    // The view that sent shows Stop, without the reason; the other view says why it cannot send.
    await until(() => /reply is being written/.test(reason(other)));
    expect(reason(first)).toBe('');
    const box = other.find('textarea.compact-chat-input') as HTMLTextAreaElement;
    expect(box.disabled).toBe(false);
    typeInto(box, 'Second question');
    pressKey('Enter', { target: box });
    expect(box.value).toBe('Second question');
    expect(h.plugin.session.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    // Enter in the sending view while busy: kept too, and now it says why.
    typeInto(firstBox, 'Third');
    pressKey('Enter', { target: firstBox });
    expect(h.plugin.session.busy).toBe(true);
    expect(reason(first)).toMatch(/reply is being written/);
    expect(firstBox.value).toBe('Third');
    await idle();
    expect(reason(other)).toBe('');
    expect(reason(first)).toBe('');
    expect(box.value).toBe('Second question');
    pressKey('Enter', { target: box });
    await until(() => h.plugin.session.messages.some((m) => m.content === 'Second answer.'));
    expect(h.plugin.session.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['First question', 'Second question']);
    expect(box.value).toBe('');
  });
});
