// The summary of a compaction round in sections (Goal, Decisions, Open tasks …), each split into
// the lines the `<previous_context>` block carried and those the record keeps for later rounds.
// The summary panel shows both; the notice in the chat shows what was carried.
import { sentInBlock, sentPart, type CompactionRecord, type ErrorLine, type SourcedLine } from '../core/record';

export interface SummarySection {
  title: string;
  /** Lines as the block carried them (a goal shortened to fit: the sentences it kept). */
  sent: (SourcedLine | ErrorLine)[];
  /** Lines in the record the block had no room for. */
  notSent: (SourcedLine | ErrorLine)[];
}

/** The record's sections in the block's order; sections without lines are left out. */
export function summarySections(r: CompactionRecord): SummarySection[] {
  const sections: { title: string; lines: readonly (SourcedLine | ErrorLine)[] }[] = [
    { title: 'Goal', lines: r.goal ? [r.goal] : [] },
    { title: 'Latest request', lines: r.request ? [r.request] : [] },
    { title: 'Constraints and preferences', lines: r.constraints },
    { title: 'Decisions', lines: r.decisions },
    { title: 'Done', lines: r.done },
    { title: 'Open tasks', lines: r.openTasks },
    { title: 'Errors', lines: r.errors },
    { title: 'Key facts (ranked)', lines: [...r.facts].sort((a, b) => b.score - a.score) },
    { title: 'Where it left off', lines: r.leftOff ? [r.leftOff] : [] },
    { title: 'Next step', lines: r.nextStep ? [r.nextStep] : [] },
  ];
  const out: SummarySection[] = [];
  for (const { title, lines } of sections) {
    if (!lines.length) continue;
    const sent = lines.filter((l) => sentInBlock(r.block, l.text));
    const notSent = lines.filter((l) => !sent.includes(l));
    out.push({ title, sent: sent.map((l) => ({ ...l, text: sentPart(r.block, l.text) })), notSent });
  }
  return out;
}
