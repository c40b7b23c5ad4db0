// @vitest-environment jsdom
// The compaction summary panel, the boundary dividers, "Compact now" with a focus (the panel, the
// modal, `/compact <focus>`) and undo — with the real plugin against a loopback Ollama server.
import { describe, expect, it } from 'vitest';
import type { EditableSection } from '../../src/core/edits';
import { sentInBlock } from '../../src/core/record';
import { blockSection, shownText } from '../../src/core/block-format';
import { VIEW_TYPE_CHAT } from '../../src/ui/chat-view';
import { VIEW_TYPE_COMPACTIONS } from '../../src/ui/compaction-panel';
import { ollamaReply, systemOf } from '../chat/helpers/harness';
import { liveListenerCount, pressKey, runCommand, shownNotices, typeInto, unloadPlugin } from '../obsidian/testing';
import { input, messages, startUi, type UiHarness, until, uiActions, closeUiAfterEach, MANUAL_COMPACTION } from './helpers';

let h: UiHarness;
const { bodies, say, openPanel } = uiActions(() => h);
closeUiAfterEach(() => h);

const para = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `Point ${i + 1} about ${topic}: we keep the details of ${topic} in mind and check them again later.`).join(' ');


async function converse(topics: readonly string[]): Promise<void> {
  for (const topic of topics) await say(`Let us talk about ${topic}. ${para(topic, 2)}`, `About ${topic}: ${para(topic, 2)}`);
}


/** The summary's section titles (compaction-sections.ts) and the sections they show. */
const SECTION_BY_TITLE: Record<string, EditableSection> = {
  Goal: 'goal',
  'Latest request': 'request',
  'Constraints and preferences': 'constraints',
  Decisions: 'decisions',
  Done: 'done',
  'Open tasks': 'openTasks',
  Errors: 'errors',
  'Key facts (ranked)': 'facts',
  'Where it left off': 'leftOff',
  'Next step': 'nextStep',
};
const rounds = (panel: HTMLElement): HTMLDetailsElement[] => panel.findAll('details.compact-chat-round') as HTMLDetailsElement[];
const figure = (round: HTMLElement, name: string): string => round.find(`.compact-chat-figure-${name}`)?.getText() ?? '';
const compactButton = (panel: HTMLElement): HTMLButtonElement => panel.find('button.compact-chat-compact-now') as HTMLButtonElement;
const undoButton = (panel: HTMLElement): HTMLButtonElement => panel.find('button.compact-chat-undo') as HTMLButtonElement;

describe('the compaction panel', () => {
  it('shows a conversation compacted twice as two rounds, newest first, with the right counts; dividers open them', async () => {
    h = await startUi(MANUAL_COMPACTION);
    const panel = await openPanel();
    expect(panel.find('.compact-chat-panel-empty')?.getText()).toMatch(/no compaction yet/i);
    await converse(['the budget', 'the launch date', 'the hiring plan']);

    // Round 1 from the panel, with a focus.
    typeInto(panel.find('input.compact-chat-focus') as HTMLInputElement, 'budget');
    expect(compactButton(panel).disabled).toBe(false);
    compactButton(panel).click();
    await until(() => rounds(panel).length === 1);
    await converse(['the office move', 'the retro']);
    // Round 2 typed in the chat's input box.
    typeInto(input(h), '/compact the retro');
    pressKey('Enter', { target: input(h) });
    await until(() => rounds(panel).length === 2);
    expect(bodies()).toHaveLength(5);

    const states = h.plugin.session.compactions;
    const [second, first] = rounds(panel);
    expect([second?.getAttr('data-round'), first?.getAttr('data-round')]).toEqual(['2', '1']);
    expect(second?.open).toBe(true);
    for (const [el, state] of [
      [first, states[0]],
      [second, states[1]],
    ] as const) {
      const r = state?.record;
      if (!el || !r) throw new Error('missing round');
      expect(figure(el, 'removed')).toBe(`${r.removedIds.length} messages in ${r.removedIds.length} units`);
      expect(figure(el, 'kept')).toBe(`${r.keptIds.length} messages in ${r.keptIds.length} units`);
      // One pair of figures, the whole prompt, in the round's header, its figures and its notice.
      const change = `${state.promptBefore.toLocaleString('en-US')} → ${state.promptAfter.toLocaleString('en-US')} tokens`;
      expect(figure(el, 'tokens')).toContain(change);
      expect(el.find('summary')?.getText()).toContain(change);
      const notice = h.view().findAll('.compact-chat-notice').find((n) => n.find('.compact-chat-notice-text')?.getText().includes(`Round ${r.round},`));
      expect(notice?.find('.compact-chat-notice-text')?.getText()).toContain(change);
      expect(figure(el, 'block')).toBe(`${r.blockTokens.toLocaleString('en-US')} tokens`);
      expect(el.find('.compact-chat-block')?.getText()).toBe(r.block);
    }
    // Round 1 removed the first two exchanges; round 2 the next two (the latest is always kept).
    expect(states.map((s) => s.record.removedIds.length)).toEqual([4, 4]);
    expect(states.map((s) => s.record.keptIds.length)).toEqual([2, 2]);
    expect(figure(first as HTMLElement, 'trigger')).toBe('Manual, focus “budget”');
    expect(figure(second as HTMLElement, 'trigger')).toBe('Manual, focus “the retro”');
    expect(first?.find('.compact-chat-round-sections h5')?.getText()).toBe('Goal');
    const keyFacts = first?.findAll('.compact-chat-round-sections h5').find((el) => el.getText().startsWith('Key facts'));
    // The focus steers the ranking: most of the top key facts are about the budget.
    const top = (keyFacts?.nextElementSibling?.findAll('.compact-chat-line-text') ?? []).slice(0, 5).map((el) => el.getText());
    expect(top.filter((t) => /budget/.test(t)).length).toBeGreaterThanOrEqual(3);
    // The summary shows exactly what was sent, section by section: every line outside "Not sent"
    // is in the block under its own section, and every line under it is not.
    for (const [i, el] of [first, second].entries()) {
      const block = states[i]?.record.block ?? '';
      let checked = 0;
      let section: EditableSection | undefined;
      for (const child of Array.from(el?.find('.compact-chat-round-sections')?.children ?? [])) {
        if (child.tagName === 'H5') section = SECTION_BY_TITLE[child.textContent ?? ''];
        for (const line of child.findAll('.compact-chat-line')) {
          const text = line.find('.compact-chat-line-text')?.getText() ?? '';
          expect(section).toBeDefined();
          const where = blockSection(block, section as EditableSection);
          expect(sentInBlock(where, shownText(section as EditableSection, text))).toBe(!line.closest('.compact-chat-not-sent'));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    }
    // The block that was sent is the one the panel shows.
    expect(systemOf(bodies()[4])).toContain(states[0]?.record.block ?? 'missing');

    // One divider per round, right after the last message the round removed.
    const dividers = h.view().findAll('.compact-chat-divider');
    expect(dividers.map((d) => d.getAttr('data-round'))).toEqual(['1', '2']);
    dividers.forEach((divider, i) => {
      expect(divider.tagName).toBe('BUTTON');
      expect(divider.getAttr('aria-label')).toMatch(/^Compaction round \d: /);
      expect(divider.previousElementSibling?.getAttr('data-message-id')).toBe(states[i]?.record.removedThrough);
    });
    first!.open = false;
    dividers[0]?.click();
    await until(() => first?.open === true && first.hasClass('is-highlighted'));
  });

  it('renders references as links that resolve to vault files (click opens, hover previews), URLs as external links', async () => {
    h = await startUi({ ...MANUAL_COMPACTION, restoredNotesBudget: 0 }, {
      'Projects/Alpha.md': '# Alpha\nThe plan.',
      'Projects/Beta.md': '# Beta\n## Plan\nSteps.',
      'Notes/Gamma.md': 'Gamma notes.',
    });
    await say('Read [[Alpha]] and [[Beta#Plan|the beta plan]], then Notes/Gamma.md and https://example.com/spec please.', 'I read [[Alpha]] and the spec at https://example.com/spec.');
    await converse(['the budget', 'the launch date']);
    const panel = await openPanel();
    compactButton(panel).click();
    await until(() => rounds(panel).length === 1 || shownNotices().length > 0);
    expect(shownNotices()).toEqual([]);

    const refs = panel.find('.compact-chat-round-references');
    const internal = refs.findAll('a.internal-link');
    expect(internal.map((a) => a.getText())).toEqual(expect.arrayContaining(['[[Alpha]]', '[[Beta#Plan|the beta plan]]', 'Notes/Gamma.md']));
    for (const a of internal) {
      const href = a.getAttr('data-href') ?? '';
      const file = h.app.metadataCache.getFirstLinkpathDest(href.split('#')[0] ?? '', '');
      expect(file, href).not.toBeNull();
      expect(a.hasClass('is-unresolved')).toBe(false);
    }
    const external = refs.find('a.external-link');
    expect(external?.getAttr('href')).toBe('https://example.com/spec');
    expect(external?.getAttr('rel')).toBe('noopener');

    const hovers: unknown[] = [];
    h.app.workspace.on('hover-link', (info: unknown) => hovers.push(info));
    const beta = internal.find((a) => a.getText().startsWith('[[Beta'));
    beta?.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(hovers).toEqual([expect.objectContaining({ source: VIEW_TYPE_COMPACTIONS, linktext: 'Beta#Plan', targetEl: beta })]);
    beta?.click();
    await until(() => h.app.workspace.getActiveFile()?.path === 'Projects/Beta.md');
  });

  it('expands the original messages, rendered like the chat, and jumps from a summary line to its message', async () => {
    // Enough messages that the first ones are not in the chat's DOM.
    h = await startUi(MANUAL_COMPACTION);
    for (let i = 0; i < 35; i++) h.server.on('POST', '/api/chat', ollamaReply(`Answer **${i}**.`));
    await h.plugin.session.send('Please plan the garden party for Saturday with the neighbours.');
    for (let i = 1; i < 35; i++) await h.plugin.session.send(`Question ${i}: and what about item ${i}?`);
    const panel = await openPanel();
    compactButton(panel).click();
    await until(() => rounds(panel).length === 1);
    const round = rounds(panel)[0] as HTMLElement;
    const record = h.plugin.session.compactions[0]?.record;

    const toggle = round.find('button.compact-chat-originals-toggle') as HTMLButtonElement;
    expect(toggle.getText()).toBe(`Show original messages (${record?.removedIds.length})`);
    expect(toggle.getAttr('aria-expanded')).toBe('false');
    toggle.click();
    expect(toggle.getAttr('aria-expanded')).toBe('true');
    const originals = round.findAll('.compact-chat-original');
    expect(originals).toHaveLength(record?.removedIds.length ?? -1);
    expect(originals[0]?.getText()).toContain('garden party');
    await until(() => originals[1]?.find('strong')?.getText() === '0');
    toggle.click();
    expect(round.findAll('.compact-chat-original')).toHaveLength(0);
    expect(toggle.getAttr('aria-expanded')).toBe('false');

    // The goal came from the very first message, which the chat has not rendered.
    const goalId = record?.goal?.sources[0] ?? 'missing';
    expect(h.view().find(`[data-message-id="${goalId}"]`)).toBeNull();
    const goalJump = round.find('.compact-chat-round-sections .compact-chat-jump') as HTMLButtonElement;
    expect(goalJump.getAttr('data-source')).toBe(goalId);
    expect(goalJump.getAttr('aria-label')).toMatch(/^Show the message this came from/);
    goalJump.click();
    await until(() => h.view().find(`[data-message-id="${goalId}"]`)?.hasClass('is-highlighted') === true);
    expect(activeDocument.activeElement?.getAttr('data-message-id')).toBe(goalId);
    // The panel stays visible beside the chat.
    expect(h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS)[0]?.parent).not.toBe(h.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0]?.parent);
  });
});

describe('compact now and undo', () => {
  it('is disabled with a reason when there is nothing to compact (panel, toolbar, /compact)', async () => {
    h = await startUi(MANUAL_COMPACTION);
    const panel = await openPanel();
    expect(compactButton(panel).disabled).toBe(true);
    expect(compactButton(panel).getAttr('aria-label')).toMatch(/empty/i);
    expect(panel.find('.compact-chat-panel-note')?.getText()).toMatch(/^Compact now is unavailable: .*empty/i);
    expect(undoButton(panel).disabled).toBe(true);
    const toolbar = h.view().find('.compact-chat-tool[aria-label^="Compact now"]');
    expect(toolbar.getAttr('aria-disabled')).toBe('true');
    expect(toolbar.getAttr('aria-label')).toMatch(/unavailable.*empty/i);
    toolbar.click();
    expect(shownNotices().at(-1)).toMatch(/empty/i);
    expect(runCommand(h.app, 'compact-chat:undo-last-compaction')).toBe(false);

    await converse(['the budget', 'the launch date']);
    expect(compactButton(panel).disabled).toBe(false);
    expect(panel.find('.compact-chat-panel-note')?.isShown()).toBe(false);
    expect(toolbar.getAttr('aria-disabled')).toBe('false');

    // The command opens a modal asking for a focus.
    runCommand(h.app, 'compact-chat:compact-now');
    const modal = activeDocument.body.find('.compact-chat-compact-modal');
    typeInto(modal.find('input') as HTMLInputElement, 'launch date');
    (modal.findAll('button').find((b) => b.getText() === 'Compact now') as HTMLElement).click();
    await until(() => h.plugin.session.compactions.length === 1);
    expect(h.plugin.session.compactions[0]?.record.focus).toBe('launch date');
    expect(activeDocument.body.find('.compact-chat-compact-modal')).toBeNull();
  });

  it('undo restores the previous request body (panel button), and the command undoes too', async () => {
    h = await startUi(MANUAL_COMPACTION);
    await converse(['the budget', 'the launch date', 'the team']);
    const panel = await openPanel();
    const lastBefore = bodies()[2];
    compactButton(panel).click();
    await until(() => rounds(panel).length === 1);
    expect(h.view().findAll('.compact-chat-divider')).toHaveLength(1);
    expect(undoButton(panel).disabled).toBe(false);

    undoButton(panel).click();
    await until(() => rounds(panel).length === 0);
    expect(h.view().findAll('.compact-chat-divider')).toHaveLength(0);
    expect(h.view().find('.compact-chat-notice.is-undone')).not.toBeNull();
    expect(undoButton(panel).disabled).toBe(true);
    await say('And next?', 'Next.');
    const body = bodies()[3];
    const reply = h.plugin.session.messages[5]?.content ?? '';
    expect(body).toEqual({ ...lastBefore, messages: [...(lastBefore?.messages ?? []), { role: 'assistant', content: reply }, { role: 'user', content: 'And next?' }] });

    // The divider's menu undoes the latest round.
    await h.plugin.session.compactNow();
    expect(rounds(panel)).toHaveLength(1);
    h.view().find('.compact-chat-divider')?.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    const items = activeDocument.body.findAll('.menu .menu-item');
    expect(items.map((i) => i.getText())).toEqual(['Open round 1 in the summary panel', 'Undo this compaction']);
    items[1]?.click();
    expect(h.plugin.session.compactions).toHaveLength(0);

    // The command: compact, undo.
    await h.plugin.session.compactNow();
    expect(rounds(panel)).toHaveLength(1);
    expect(runCommand(h.app, 'compact-chat:undo-last-compaction')).toBe(true);
    expect(h.plugin.session.compactions).toHaveLength(0);
    expect(rounds(panel)).toHaveLength(0);
    expect(messages(h)).toHaveLength(8);
  });

  it('the panel is keyboard reachable and releases everything when the plugin unloads', async () => {
    h = await startUi(MANUAL_COMPACTION);
    await converse(['the budget', 'the launch date']);
    const panel = await openPanel();
    compactButton(panel).click();
    await until(() => rounds(panel).length === 1);
    (panel.find('button.compact-chat-originals-toggle')).click();
    // Everything actionable is a button, a link, a summary or a field: reachable by Tab.
    for (const el of panel.findAll('[data-action], [data-source]')) expect(['BUTTON', 'A']).toContain(el.tagName);
    for (const el of panel.findAll('button')) expect((el.getAttr('aria-label') ?? el.getText()).trim()).not.toBe('');
    expect(panel.find('summary')).not.toBeNull();

    await unloadPlugin(h.plugin);
    expect(h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS)).toHaveLength(0);
    expect(liveListenerCount()).toBe(0);
    expect(h.plugin.session.events.listenerCount()).toBe(0);
  });
});
