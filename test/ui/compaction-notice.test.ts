// @vitest-environment jsdom
// The entry renderer's compaction notice and the shared summary sections, on a real round from the
// core: prose with the whole-prompt figures, the carried sections rendered as text, the exact block
// behind its own click, and never any of the model's or the notes' text as HTML.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import { renderBlock } from '../../src/core/render';
import type { ChatMessage } from '../../src/core/messages';
import { sentInBlock } from '../../src/core/record';
import { blockSection, shownText } from '../../src/core/block-format';
import { compactionNoticeText, type CompactionState, type NoticeEntry } from '../../src/chat/entries';
import { compactionDivider, fillEntry, type RenderedEntry } from '../../src/ui/entry-renderer';
import { summarySections } from '../../src/chat/compaction-sections';
import { renderDetails } from '../../src/ui/summary-details';
import { installDomHelpers } from '../obsidian/dom';

installDomHelpers(window);

const T0 = Date.UTC(2026, 10, 25, 18, 0);
let seq = 0;
const m = (role: 'user' | 'assistant', content: string): ChatMessage => ({ id: `m${seq++}`, createdAt: T0 + seq * 60_000, role, content });

function round(messages: ChatMessage[], promptBefore = 7012, promptAfter = 2210): CompactionState {
  const result = compact(messages, { budgetTokens: 500, keepExchanges: 1, now: T0 + 3_600_000, trigger: 'tokens' });
  if (!result.ok) throw new Error(result.message);
  return { record: result.record, causes: ['tokens'], microCleared: [], restored: { notes: [], block: '', tokens: 0 }, promptBefore, promptAfter };
}

function gardenChat(): ChatMessage[] {
  seq = 0;
  return [
    m('user', 'Help me plan the garden in [[Projects/Garden]]. Never use pesticides.'),
    m('assistant', 'We decided to put raised beds by the shed. <img src=x onerror="alert(1)">'),
    m('user', 'Next, order the soil before Friday.'),
    m('assistant', 'I will list the soil suppliers next.'),
    m('user', 'What about the pond?'),
    m('assistant', 'The pond goes in spring.'),
  ];
}

function renderNotice(entry: NoticeEntry): HTMLElement {
  const item: RenderedEntry = { entry, el: createDiv(), bodyEl: null, component: null, version: 0, editing: false };
  fillEntry(item, { busy: () => false, canRewrite: () => false, canPin: () => false, renderBody: () => undefined });
  return item.el;
}

describe('the compaction notice', () => {
  it('reads as prose with the whole-prompt figures, sections one click away, the exact block behind its own', () => {
    const state = round(gardenChat());
    const removed = state.record.removedIds.length;
    const el = renderNotice({ kind: 'notice', id: 'n1', level: 'info', text: compactionNoticeText(state, removed), compaction: state });

    expect(el.hasClass('mod-compaction')).toBe(true);
    expect(el.find('.compact-chat-notice-text')?.getText()).toBe(
      `${removed} messages summarised; 7,012 → 2,210 tokens. Round 1, near the context limit. Every message is still in the conversation.`,
    );
    const [carried, exact] = el.findAll('details');
    expect(carried?.hasClass('compact-chat-notice-details')).toBe(true);
    expect(carried?.hasAttribute('open')).toBe(false);
    const titles = carried?.findAll('.compact-chat-notice-section-title').map((t) => t.getText());
    expect(titles).toEqual(summarySections(state.record).filter((s) => s.sent.length > 0).map((s) => s.title));
    expect(titles).toContain('Goal');
    expect(carried?.getText()).toContain('plan the garden');
    expect(carried?.find('summary')?.getText()).toMatch(/^What was carried forward \(\d+ lines?\)$/);
    // The block sits in its own closed <details>, exactly as sent.
    expect(exact?.hasClass('compact-chat-notice-block')).toBe(true);
    expect(exact?.hasAttribute('open')).toBe(false);
    expect(exact?.find('pre.compact-chat-block')?.getText()).toBe(state.record.block);
    // Model text is text: the markup in a reply never becomes an element.
    expect(el.find('img')).toBeNull();
    expect(el.find('.compact-chat-notice-open')?.getAttr('data-open-round')).toBe('1');
  });

  it('lists a sentence the block carried once, under the section that carried it', () => {
    const state = round(gardenChat());
    const decision = 'We decided to put raised beds by the shed, where the hose reaches them.';
    const line = { text: decision, sources: ['m1'], at: 0, score: 9, round: 1 };
    // The same sentence as a decision and as a ranked fact; the block says it once, as a decision.
    const record = {
      ...state.record,
      decisions: [line],
      facts: [line, ...state.record.facts],
      block: ['<previous_context>', 'Decisions:', `- ${decision}`, '</previous_context>'].join('\n'),
    };
    const sections = summarySections(record);
    const said = sections.flatMap((s) => s.sent.map((l) => l.full));
    expect(said.filter((t) => t === decision)).toHaveLength(1);
    expect(sections.find((s) => s.section === 'decisions')?.sent.map((l) => l.full)).toContain(decision);
  });

  it('an undone round keeps its line, struck through, without the details', () => {
    const state = round(gardenChat());
    const el = renderNotice({ kind: 'notice', id: 'n1', level: 'info', text: compactionNoticeText(state, 4), compaction: state, undone: true });
    expect(el.hasClass('is-undone')).toBe(true);
    expect(el.find('details')).toBeNull();
    expect(el.find('.compact-chat-notice-undone')?.getText()).toMatch(/sent again/);
  });

  it('the divider after a round names it and opens it', () => {
    const state = round(gardenChat());
    const el = compactionDivider(state);
    expect(el.getAttr('data-round')).toBe('1');
    expect(el.getText()).toBe('Compacted · round 1');
  });
});

describe('summary sections', () => {
  it('lists a line under the section the block carried it in', () => {
    const line = (text: string, i: number) => ({ text, sources: [`s${i}`], at: 0, score: 1, round: 1, seq: i });
    const decision = 'We decided to put the pond next to the shed, where the hose reaches it.';
    const record = {
      ...round(gardenChat()).record,
      decisions: [line(decision, 1)],
      facts: [line(decision, 1), line('The neighbour said the fence is 40 cm further east than the map shows.', 2)],
      done: [line('Done: the fence line is in the project note now.', 3)],
      leftOff: null,
      block: ['<previous_context>', 'Done:', '- the fence line is in the project note now.', 'Key facts:', `- Assistant: ${decision}`, '</previous_context>'].join('\n'),
    };
    const byTitle = new Map(summarySections(record).map((s) => [s.title, s]));
    // Sent as a key fact: not listed as a decision, nor as one kept for later rounds.
    expect(byTitle.has('Decisions')).toBe(false);
    expect(byTitle.get('Key facts (ranked)')?.sent.map((l) => l.text)).toContain(decision);
    expect(byTitle.get('Key facts (ranked)')?.notSent.map((l) => l.text)).toEqual(['The neighbour said the fence is 40 cm further east than the map shows.']);
    // A "Done:" item the block shows without its label was sent.
    expect(byTitle.get('Done')?.sent.map((l) => l.full)).toEqual(['Done: the fence line is in the project note now.']);
    // A block saved by a version whose sections this one does not name is matched whole.
    const old = summarySections({ ...record, block: `<previous_context>\nSummary of earlier messages\n- ${decision}\n</previous_context>` });
    expect(old.find((s) => s.title === 'Decisions')?.sent.map((l) => l.text)).toEqual([decision]);
  });

  it('says what the block wrote under a line, the command, its output and how an error was fixed, each sent or not', () => {
    const base = round(gardenChat());
    const at = (text: string) => ({ text, sources: ['m1'], at: 0, score: 1, round: 1, seq: 1 });
    const command = 'grep -n "ordering_parts" compiler.py';
    const record = {
      ...base.record,
      errors: [{ ...at('ValueError: invalid literal for int()'), resolution: 'I installed the backport and the tests pass.' }],
      leftOff: { ...at('Let me find where ordering_parts is defined:'), command, output: ['35: ordering_parts = re.compile(...)', '356: ordering_parts.search(sql) <b>x</b>'] },
      // The block had room for the command and the first output line, not for the fix.
      block: ['<previous_context>', 'Errors met:', '- ValueError: invalid literal for int()', 'Left off: Let me find where ordering_parts is defined:', `- Ran: ${command}`, '  ```', '  35: ordering_parts = re.compile(...)', '  ```', '</previous_context>'].join('\n'),
    };
    const byTitle = new Map(summarySections(record).map((s) => [s.title, s]));
    expect(byTitle.get('Where it left off')?.sent[0]?.details).toEqual([
      { label: 'Ran', text: command, code: true, sent: true },
      { label: 'Output', text: '35: ordering_parts = re.compile(...)', code: true, sent: true },
      { label: 'Output', text: '356: ordering_parts.search(sql) <b>x</b>', code: true, sent: false },
    ]);
    expect(byTitle.get('Errors')?.sent[0]?.details).toEqual([{ label: 'Then', text: 'I installed the backport and the tests pass.', code: false, sent: false }]);

    // The notice shows only what was sent; the panel labels the rest, as text (never markup).
    const el = renderNotice({ kind: 'notice', id: 'n2', level: 'info', text: 'Compacted.', compaction: { ...base, record } });
    const details = el.findAll('.compact-chat-line-detail').map((d) => d.getText());
    expect(details).toEqual([`Ran: ${command}`, 'Output: 35: ordering_parts = re.compile(...)']);
    const panel = createDiv();
    renderDetails(panel, byTitle.get('Where it left off')?.sent[0]?.details ?? [], true);
    expect(panel.findAll('.compact-chat-line-detail.is-not-sent').map((d) => d.getText())).toEqual(['Output (not sent): 356: ordering_parts.search(sql) <b>x</b>']);
    expect(panel.querySelector('b')).toBeNull();

    // What the renderer wrote is read back as sent, odd text included (a lone surrogate is dropped
    // from the block: the panel must compare with the line as written, not as extracted).
    const odd = { ...record, errors: [{ ...at('ValueError: invalid literal for int()'), resolution: 'Installed the backport \uD800 and the tests pass.' }] };
    const rendered = { ...odd, block: renderBlock(odd, { budgetTokens: 600, model: 'gpt-4o' }) };
    expect(rendered.block).toContain('  - Then: Installed the backport  and the tests pass.');
    const sections = new Map(summarySections(rendered).map((s) => [s.title, s]));
    expect(sections.get('Errors')?.sent[0]?.details).toEqual([{ label: 'Then', text: 'Installed the backport \uD800 and the tests pass.', code: false, sent: true }]);
    expect(sections.get('Where it left off')?.sent[0]?.details.map((d) => [d.label, d.sent])).toEqual([['Ran', true], ['Output', true]]);
  });

  it("lists the user's requests as the block marks them, open or done, sent or kept for later", () => {
    const base = round(gardenChat());
    const at = (text: string, i: number) => ({ text, sources: [`m${i}`], at: 0, score: 1, round: 1, seq: i });
    const record = {
      ...base.record,
      topics: [at('Order the soil before Friday.', 1), at('Draw the bed layout facing south.', 2), at('Find a pond pump under 60 euros.', 3)],
      done: [at('Done: I ordered the soil for Friday.', 4)],
      block: ['<previous_context>', 'Done:', '- I ordered the soil for Friday.', 'Requests:', '- Done: Order the soil before Friday.', '- Open: Draw the bed layout facing south.', '</previous_context>'].join('\n'),
    };
    const requests = summarySections(record).find((s) => s.title === 'Requests');
    expect(requests?.sent.map((l) => `${l.status}: ${l.text}`)).toEqual(['Done: Order the soil before Friday.', 'Open: Draw the bed layout facing south.']);
    expect(requests?.notSent.map((l) => `${l.status}: ${l.text}`)).toEqual(['Open: Find a pond pump under 60 euros.']);
    const el = renderNotice({ kind: 'notice', id: 'n3', level: 'info', text: 'Compacted.', compaction: { ...base, record } });
    expect(el.getText()).toContain('Open: Draw the bed layout facing south.');
    expect(el.getText()).not.toContain('pond pump');
  });

  it('split every line of the record into sent (as the block carried it) and not sent, in the block order', () => {
    const word = fc.constantFrom('garden', 'pond', 'soil', 'budget', 'shed', 'Friday', 'tomatoes', 'decided', 'never', 'must', 'next', 'ordered');
    const sentence = fc.array(word, { minLength: 3, maxLength: 12 }).map((w) => `${w.join(' ')}.`);
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 4, maxLength: 16 }), (texts) => {
        seq = 0;
        const messages = texts.map((t, i) => m(i % 2 === 0 ? 'user' : 'assistant', t));
        const result = compact(messages, { budgetTokens: 200, keepExchanges: 1, now: T0, trigger: 'manual' });
        if (!result.ok) return;
        const r = result.record;
        for (const section of summarySections(r)) {
          expect(section.sent.length + section.notSent.length).toBeGreaterThan(0);
          // Sent: in the block, under its own section; not sent: not under its own section.
          for (const line of section.sent) expect(blockSection(r.block, section.section)).toContain(line.text);
          for (const line of section.notSent) expect(sentInBlock(blockSection(r.block, section.section), shownText(section.section, line.text))).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
  });
});
