// The summary of a compaction round in sections (Goal, Decisions, Open tasks …), each split into
// the lines the `<previous_context>` block carried, those the record keeps for later rounds, and
// those the user removed. A line the user rewrote shows its new text and keeps the extracted one.
// The summary panel shows all of it; the notice in the chat shows what was carried.
import { type EditableSection, lineKey, lineState } from '../core/edits';
import { sentInBlock, sentPart, type CompactionRecord, type ErrorLine, type LeftOffLine, type SourcedLine } from '../core/record';
import { blockSection, hasSections, outputLine, outputOf, ranLine, resolutionLine, shownText } from '../core/block-format';
import { topicStatus } from '../core/extract-summary';

/** What the block may show under a line, each only while room was left: how an error was resolved,
 * the command the work left off at, and the lines of its output that bear on the task. */
export interface SummaryDetail {
  label: 'Then' | 'Ran' | 'Output';
  text: string;
  /** Shown as code (a command, output lines). */
  code: boolean;
  /** Whether the block carried it. */
  sent: boolean;
}

/** A line as the panel shows it, with what names it for an edit. */
export type SummaryLine = (SourcedLine | ErrorLine) & {
  /** What the block showed (or had no room for) under the line. */
  details: SummaryDetail[];
  /** A request of the user (section "topics"): whether a later line says it was done, as the block
   * marks it. */
  status?: 'Open' | 'Done';
  section: EditableSection;
  /** The line's identity for an edit (its text as extracted, normalised). */
  key: string;
  /** The text as extracted, when the user rewrote it. */
  original?: string;
  /** The whole line (`text` may be the part the block sent: a goal shortened to fit). */
  full: string;
};

export interface SummarySection {
  title: string;
  section: EditableSection;
  /** Lines as the block carried them (a goal shortened to fit: the sentences it kept). */
  sent: SummaryLine[];
  /** Lines in the record the block had no room for. */
  notSent: SummaryLine[];
  /** Lines the user removed (or copies of a line they edited in another section). */
  removed: SummaryLine[];
}

/** The record's sections in the block's order; sections without lines are left out. */
export function summarySections(r: CompactionRecord): SummarySection[] {
  const sections: { title: string; section: EditableSection; lines: readonly (SourcedLine | ErrorLine)[] }[] = [
    { title: 'Goal', section: 'goal', lines: r.goal ? [r.goal] : [] },
    { title: 'Latest request', section: 'request', lines: r.request ? [r.request] : [] },
    { title: 'Constraints and preferences', section: 'constraints', lines: r.constraints },
    { title: 'Decisions', section: 'decisions', lines: r.decisions },
    { title: 'Done', section: 'done', lines: r.done },
    { title: 'Open tasks', section: 'openTasks', lines: r.openTasks },
    { title: 'Errors', section: 'errors', lines: r.errors },
    { title: 'Requests', section: 'topics', lines: r.topics },
    { title: 'Key facts (ranked)', section: 'facts', lines: [...r.facts].sort((a, b) => b.score - a.score) },
    { title: 'Where it left off', section: 'leftOff', lines: r.leftOff ? [r.leftOff] : [] },
    { title: 'Next step', section: 'nextStep', lines: r.nextStep ? [r.nextStep] : [] },
  ];
  const out: SummarySection[] = [];
  // The block says a sentence once (a key fact that is also a decision or the goal is not repeated):
  // so does the summary, under the section that carried it.
  const carried = new Set<string>();
  // A block of an older version, whose sections this one does not name, is matched whole.
  const sectioned = hasSections(r.block);
  for (const { title, section, lines } of sections) {
    if (!lines.length) continue;
    const where = sectioned ? blockSection(r.block, section) : r.block;
    const result: SummarySection = { title, section, sent: [], notSent: [], removed: [] };
    for (const raw of lines) {
      const line: SummaryLine = { ...raw, section, key: lineKey(raw.text), full: raw.text, details: detailsOf(raw, where) };
      // (The block's rule: open unless a "done" line covers it.)
      if (section === 'topics') line.status = topicStatus(raw, r.done);
      const state = lineState(r, section, raw);
      if (state && 'removed' in state) {
        // A copy of a line rewritten in another section is shown there, rewritten.
        if (!state.editedIn) result.removed.push(line);
        continue;
      }
      if (state && 'text' in state) {
        line.original = raw.text;
        line.text = state.text;
        line.full = state.text;
      }
      // Sent when the block's own section carried it: a decision the block showed as a key fact is
      // listed as a sent key fact, not as a decision.
      const shown = shownText(section, line.text);
      if (sentInBlock(where, shown)) {
        const said = lineKey(shown);
        if (carried.has(said)) continue;
        carried.add(said);
        result.sent.push({ ...line, text: sentPart(where, shown) });
      } else result.notSent.push(line);
    }
    out.push(result);
  }
  // A line another section sent is not listed as kept for later rounds as well.
  for (const result of out) result.notSent = result.notSent.filter((l) => !carried.has(lineKey(shownText(l.section, l.text))));
  return out.filter((s) => s.sent.length + s.notSent.length + s.removed.length > 0);
}

/**
 * The lines the block writes under a line (block-format.ts's resolutionLine, ranLine and
 * outputLine), each marked sent when the block's section holds it as written there.
 */
function detailsOf(raw: SourcedLine | ErrorLine | LeftOffLine, where: string): SummaryDetail[] {
  const out: SummaryDetail[] = [];
  const lines = new Set(where.split('\n'));
  if ('resolution' in raw && typeof raw.resolution === 'string' && raw.resolution) {
    out.push({ label: 'Then', text: raw.resolution, code: false, sent: lines.has(resolutionLine(raw.resolution)) });
  }
  if ('command' in raw && typeof raw.command === 'string' && raw.command) {
    out.push({ label: 'Ran', text: raw.command, code: true, sent: lines.has(ranLine(raw.command)) });
    const output = outputOf(raw);
    const sent = output.filter((l) => lines.has(outputLine(l)));
    const notSent = output.filter((l) => !lines.has(outputLine(l)));
    if (sent.length) out.push({ label: 'Output', text: sent.join('\n'), code: true, sent: true });
    if (notSent.length) out.push({ label: 'Output', text: notSent.join('\n'), code: true, sent: false });
  }
  return out;
}
