// The user's say over what is carried, in the core: edits of a round's lines (removed or
// rewritten) rendered into the block, undone by dropping the last step, kept by a later round that
// chains from the edited one; and pinned messages, which no compaction removes (with their whole
// unit), which the policy counts as kept, and which a later round summarises once unpinned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact, type CompactOptions } from '../../src/core/compact';
import { EDITABLE_SECTIONS, applyEdits, carryEdits, cleanEditText, type LineEdit, lineKey, lineState, reviseRecord, sectionLines } from '../../src/core/edits';
import type { ChatMessage } from '../../src/core/messages';
import { decideCompaction, resolveBudgets, sentFrom } from '../../src/core/policy';
import type { CompactionRecord, SourcedLine } from '../../src/core/record';
import { estimateMessageTokens } from '../../src/core/message-tokens';
import { groupUnits, validCutPositions, wholeUnits } from '../../src/core/units';
import { conversation } from './arbitraries';
import { ok } from './compacted';

let seq = 0;
const m = (role: 'user' | 'assistant', content: string): ChatMessage => ({ id: `e${seq++}`, createdAt: 1_700_000_000_000 + seq * 60_000, role, content });

function chat(): ChatMessage[] {
  seq = 0;
  return [
    m('user', 'Help me plan the garden renovation. The budget is 3,500 euros.'),
    m('assistant', 'Happy to help. What should stay as it is?'),
    m('user', 'Never suggest removing the old apple tree. Always answer in short bullet lists.'),
    m('assistant', 'Noted. The soil pH is 6.2, which suits vegetables and most herbs.'),
    m('user', 'We decided to put the greenhouse on the south side, next to the shed.'),
    m('assistant', 'The greenhouse on the south side gets the most light in winter.'),
    m('user', 'I ordered 40 lavender plants from Hortus Nursery for the border.'),
    m('assistant', 'Lavender needs full sun and well-drained soil, so the border works.'),
    m('user', 'Can you draft the planting schedule for April?'),
    m('assistant', 'Here is a first draft: peas in week 1, lettuce in week 2, beans in week 3.'),
  ];
}

const opts = (o: Partial<CompactOptions> = {}): CompactOptions => ({ budgetTokens: 600, model: 'gpt-4o', now: 1_700_000_000_000, trigger: 'manual', ...o });

/** A line the block sent, with its section. */
function sentLine(record: CompactionRecord, section: 'constraints' | 'facts'): SourcedLine {
  const line = record[section].find((l) => record.block.includes(l.text));
  if (!line) throw new Error(`no ${section} line in the block`);
  return line;
}

const edit = (section: LineEdit['section'], line: SourcedLine, change: { text: string } | { removed: true }): LineEdit => ({ section, key: lineKey(line.text), source: line.sources[0] ?? '', ...change });

describe('edits of carried lines', () => {
  it('a removed line leaves the block, a rewritten one is sent as written, and dropping the last step restores the block', () => {
    const round = ok(compact(chat(), opts({ cut: 8 }))).record;
    const constraint = sentLine(round, 'constraints');
    const fact = sentLine(round, 'facts');

    const removed = reviseRecord(round, [edit('facts', fact, { removed: true })], { model: 'gpt-4o' });
    expect(removed.block).not.toContain(fact.text);
    // The record keeps what was extracted: only the overlay changed.
    expect(removed.facts.map((f) => f.text)).toContain(fact.text);
    expect(lineState(removed, 'facts', fact)).toEqual({ removed: true });

    const steps = [...(removed.edits ?? []), edit('constraints', constraint, { text: 'Keep the old apple tree and the pear tree.' })];
    const rewritten = reviseRecord(removed, steps, { model: 'gpt-4o' });
    expect(rewritten.block).toContain('Keep the old apple tree and the pear tree.');
    expect(rewritten.block).not.toContain(constraint.text);
    expect(rewritten.block).not.toContain(fact.text);

    // Undo, step by step: the block comes back exactly as it was rendered.
    const undoOne = reviseRecord(rewritten, (rewritten.edits ?? []).slice(0, -1), { model: 'gpt-4o' });
    expect(undoOne.block).toBe(removed.block);
    const undoAll = reviseRecord(undoOne, [], { model: 'gpt-4o' });
    expect(undoAll.block).toBe(round.block);
    expect(undoAll.blockTokens).toBe(round.blockTokens);
  });

  it('a restore step after a rewrite brings the extracted text back; the last step of a line holds', () => {
    const round = ok(compact(chat(), opts({ cut: 8 }))).record;
    const constraint = sentLine(round, 'constraints');
    const twice = reviseRecord(round, [edit('constraints', constraint, { text: 'First rewrite of it.' }), edit('constraints', constraint, { text: 'Second rewrite of it.' })]);
    expect(twice.block).toContain('Second rewrite of it.');
    expect(twice.block).not.toContain('First rewrite of it.');
    const restored = reviseRecord(twice, [...(twice.edits ?? []), { section: 'constraints', key: lineKey(constraint.text) }]);
    expect(restored.block).toContain(constraint.text);
    // A restore carries nothing into the next round.
    expect(carryEdits(restored.edits, restored)).toEqual([]);
  });

  it('a later round chaining from an edited round keeps the removed line out and the rewritten one as written', () => {
    const messages = chat();
    const first = ok(compact(messages, opts({ cut: 6 }))).record;
    const constraint = sentLine(first, 'constraints');
    const fact = sentLine(first, 'facts');
    const edited = reviseRecord(first, [edit('facts', fact, { removed: true }), edit('constraints', constraint, { text: 'The apple tree stays, whatever the plan.' })]);

    const second = ok(compact(messages, opts({ cut: 8, previous: edited }))).record;
    expect(second.round).toBe(2);
    expect(second.block).not.toContain(fact.text);
    expect(second.block).not.toContain(constraint.text);
    expect(second.block).toContain('The apple tree stays, whatever the plan.');
    // The edits travel with the round; the removed fact is not ranked again.
    expect(second.edits?.map((e) => e.key).sort()).toEqual([lineKey(constraint.text)]);
    expect(second.facts.some((f) => f.text === fact.text)).toBe(false);
    expect(applyEdits(second).constraints.map((c) => c.text)).toContain('The apple tree stays, whatever the plan.');
  });

  it('a line removed from one section leaves its copies in the others, in this round and the next', () => {
    const messages = chat();
    const first = ok(compact(messages, opts({ cut: 6 }))).record;
    // The constraint is also a ranked key fact: removing the fact takes the constraint too.
    const constraint = sentLine(first, 'constraints');
    const copy = first.facts.find((f) => lineKey(f.text) === lineKey(constraint.text));
    if (!copy) throw new Error('no copy of the constraint among the facts');
    const edited = reviseRecord(first, [edit('facts', copy, { removed: true })]);
    expect(edited.block).not.toContain(constraint.text);
    const second = ok(compact(messages, opts({ cut: 8, previous: edited }))).record;
    expect(second.block).not.toContain(constraint.text);
  });

  it('any sequence of removes, rewrites and restores: no removed line is rendered, and undoing every step gives the block back', () => {
    const round = ok(compact(chat(), opts({ cut: 8 }))).record;
    const lines = EDITABLE_SECTIONS.flatMap((section) => sectionLines(round, section).map((line) => ({ section, line })));
    const step = fc.record({ pick: fc.nat(), kind: fc.constantFrom('remove', 'rewrite', 'restore'), text: fc.string({ unit: 'grapheme', maxLength: 30 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        const edits: LineEdit[] = steps.map(({ pick, kind, text }) => {
          const { section, line } = lines[pick % lines.length] as (typeof lines)[number];
          const base = { section, key: lineKey(line.text) };
          const clean = cleanEditText(text);
          return kind === 'remove' || (kind === 'rewrite' && !clean) ? { ...base, removed: true as const } : kind === 'rewrite' ? { ...base, text: clean } : base;
        });
        const revised = reviseRecord(round, edits, { model: 'gpt-4o' });
        const shown = applyEdits(revised);
        for (const section of EDITABLE_SECTIONS) {
          for (const line of sectionLines(round, section)) {
            const state = lineState(revised, section, line);
            if (state && 'removed' in state) expect(sectionLines(shown, section).some((l) => lineKey(l.text) === lineKey(line.text) && l.sources === line.sources)).toBe(false);
          }
        }
        expect(revised.blockTokens).toBeLessThanOrEqual(round.blockBudget ?? 0);
        expect(reviseRecord(revised, [], { model: 'gpt-4o' }).block).toBe(round.block);
      }),
      { numRuns: 60 },
    );
  });

  it('edit text is one clean line', () => {
    expect(cleanEditText('  two\nlines\t here \uD800 ')).toBe('two lines here');
    expect(cleanEditText(' \n ')).toBe('');
  });
});

describe('pinned messages', () => {
  it('are never removed by compaction, with their whole unit', () => {
    fc.assert(
      fc.property(conversation, fc.array(fc.nat(), { maxLength: 4 }), fc.nat(), (messages, picks, cutPick) => {
        if (!messages.length) return;
        const pins = new Set(picks.map((p) => (messages[p % messages.length] as ChatMessage).id));
        const whole = wholeUnits(messages, pins);
        const valid = validCutPositions(groupUnits(messages), messages.length).flatMap((v, i) => (v ? [i] : []));
        const result = compact(messages, { budgetTokens: 300, cut: valid[cutPick % valid.length], pinned: pins });
        if (!result.ok) return;
        for (const removed of result.removed) expect(whole.has(removed.id)).toBe(false);
        for (const id of whole) expect(result.kept.some((k) => k.id === id)).toBe(true);
        // What is kept is whole units: no tool call without its results, no result without its call.
        const keptIds = new Set(result.kept.map((k) => k.id));
        for (const unit of groupUnits(messages)) {
          const inKept = unit.indices.filter((i) => keptIds.has((messages[i] as ChatMessage).id)).length;
          expect(inKept === 0 || inKept === unit.indices.length).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('pinned when a round passes them, unpinned later: the next round summarises them', () => {
    const messages = chat();
    const pinned = messages[3] as ChatMessage;
    const first = ok(compact(messages.slice(0, 8), opts({ cut: 6, pinned: new Set([pinned.id]) }))).record;
    expect(first.removedIds).not.toContain(pinned.id);
    expect(first.keptPinned).toEqual([pinned.id]);
    expect(first.keptIds).toContain(pinned.id);

    const still = ok(compact(messages, opts({ cut: 8, previous: first, pinned: new Set([pinned.id]) }))).record;
    expect(still.removedIds).not.toContain(pinned.id);
    expect(still.keptPinned).toEqual([pinned.id]);

    const released = ok(compact(messages, opts({ cut: 8, previous: first }))).record;
    expect(released.removedIds).toContain(pinned.id);
    expect(released.keptPinned).toBeUndefined();
  });

  it('the policy counts them as kept and says so when they are all that lies before the cut', () => {
    const messages = chat();
    const budgets = resolveBudgets({ window: 8192, replyReserve: 1024, trigger: { kind: 'percent', percent: 85 }, messageLimit: 0, keepExchanges: 1, keepTokens: 0, blockBudget: 600, restoredBudget: 0 });
    const tokensOf = (msg: ChatMessage): number => estimateMessageTokens(msg);
    const base = { budgets, messages, tokensOf, promptTokens: 2000, fixedTokens: 100, manual: true };
    const free = decideCompaction(base);
    if (free.action !== 'compact') throw new Error(free.action);
    expect(free.pinnedTokens).toBe(0);

    const pins = new Set([messages[2]?.id ?? '']);
    const some = decideCompaction({ ...base, pinned: pins });
    if (some.action !== 'compact') throw new Error(some.action);
    expect(some.pinnedTokens).toBe(tokensOf(messages[2] as ChatMessage));
    expect(some.keptTokens).toBe(free.keptTokens + some.pinnedTokens);

    const all = decideCompaction({ ...base, pinned: new Set(messages.slice(0, 8).map((x) => x.id)) });
    expect(all.action).toBe('nothing-to-compact');
    if (all.action === 'nothing-to-compact') expect(all.message).toMatch(/pinned.*Unpin some/);
  });

  it('are sent from before the boundary in conversation order', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 30 }), fc.array(fc.boolean(), { maxLength: 30 }), fc.nat(), (users, pins, b) => {
        const items = users.map((u, i) => ({ i, user: u, pinned: pins[i] === true }));
        const boundary = items.length ? b % (items.length + 1) : 0;
        const sent = sentFrom(items, boundary, (x) => x.user, (x) => x.pinned);
        // A subsequence of the items, in order, holding everything after the boundary and every pin.
        for (let k = 1; k < sent.length; k++) expect((sent[k] as { i: number }).i).toBeGreaterThan((sent[k - 1] as { i: number }).i);
        for (const x of items) if (x.i >= boundary || x.pinned) expect(sent).toContain(x);
      }),
    );
  });
});
