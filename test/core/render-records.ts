// Records and a token count for the render pieces' tests: one token per word, so sizes can be
// counted by hand.
import type { CompactionRecord, SourcedLine } from '../../src/core/record';

export const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

export const line = (text: string, over: Partial<SourcedLine> = {}): SourcedLine => ({ text, sources: ['m1'], at: 0, score: 1, round: 1, ...over });

/** A record with nothing in it. */
export function blank(over: Partial<CompactionRecord> = {}): CompactionRecord {
  return {
    version: 1,
    round: 1,
    timestamp: 0,
    trigger: 'manual',
    removedIds: [],
    keptIds: [],
    removedThrough: null,
    tokensBefore: 0,
    tokensAfter: 0,
    goal: null,
    constraints: [],
    decisions: [],
    done: [],
    openTasks: [],
    errors: [],
    leftOff: null,
    facts: [],
    topics: [],
    references: [],
    filesRead: [],
    filesModified: [],
    block: '',
    blockTokens: 0,
    ...over,
  };
}
