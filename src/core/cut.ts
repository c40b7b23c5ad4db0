// Where to cut: which leading part of the conversation compaction removes from what is sent.
import { estimateMessageTokens } from './message-tokens';
import type { ChatMessage } from './messages';
import { type MessageUnit, groupUnits, validCutPositions } from './units';

export interface CutOptions {
  /** Most recent exchanges (a user message and everything up to the next one) kept verbatim; 0: no minimum. */
  keepExchanges: number;
  /** At least this many recent tokens kept verbatim; 0: no minimum. */
  keepTokens: number;
  /** Upper bound on what is kept, so huge recent exchanges cannot make compaction useless. It never
   * overrides keeping the latest user message and what follows it. */
  maxKeepTokens?: number;
  /** Model id, for the token estimate. */
  model?: string;
  /** Tokens of each message if already known (e.g. the tracker's cached figures). */
  tokensOf?: (message: ChatMessage, index: number) => number;
}

export type CutResult =
  | {
      ok: true;
      /** Messages [0, index) are compacted; [index, n) are kept. */
      index: number;
      units: MessageUnit[];
      removedUnits: MessageUnit[];
      keptUnits: MessageUnit[];
      removedTokens: number;
      keptTokens: number;
    }
  | { ok: false; reason: 'nothing-to-compact'; message: string };

export function selectCut(messages: readonly ChatMessage[], options: CutOptions): CutResult {
  const n = messages.length;
  const nothing = (message: string): CutResult => ({ ok: false, reason: 'nothing-to-compact', message });
  if (n === 0) return nothing('Nothing to compact: the conversation is empty.');

  const units = groupUnits(messages);
  const valid = validCutPositions(units, n);
  const tokensOf = options.tokensOf ?? ((m: ChatMessage) => estimateMessageTokens(m, options.model));
  // suffix[p]: tokens of messages p…n-1.
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] as number) + tokensOf(messages[i] as ChatMessage, i);
  const keptFrom = (p: number): number => suffix[p] as number;

  // The latest user message and everything after it are always kept.
  let lastUser = -1;
  for (let i = n - 1; i >= 0; i--) if (messages[i]?.role === 'user') { lastUser = i; break; }
  const lastUnitStart = units[units.length - 1]?.start ?? 0;
  const ceiling = snapDown(valid, lastUser >= 0 ? lastUser : lastUnitStart);

  // Keep the last N exchanges.
  let byExchanges = n;
  if (options.keepExchanges > 0) {
    const userStarts = units.filter((u) => u.kind === 'user').map((u) => u.start);
    byExchanges = userStarts.length >= options.keepExchanges ? (userStarts[userStarts.length - options.keepExchanges] as number) : 0;
  }
  // Keep at least K recent tokens.
  let byTokens = n;
  if (options.keepTokens > 0) {
    byTokens = 0;
    for (let p = n; p >= 0; p--) {
      if (valid[p] && keptFrom(p) >= options.keepTokens) { byTokens = p; break; }
    }
  }

  let cut = snapDown(valid, Math.min(byExchanges, byTokens, ceiling));
  if (options.maxKeepTokens !== undefined && options.maxKeepTokens > 0 && keptFrom(cut) > options.maxKeepTokens) {
    let p = cut;
    while (p < ceiling && (!valid[p] || keptFrom(p) > options.maxKeepTokens)) p++;
    cut = snapDown(valid, p);
  }
  if (cut <= 0) {
    return nothing(
      lastUser === 0 || units.length <= 1
        ? 'Nothing to compact: only the latest request is in the conversation.'
        : 'Nothing to compact: everything is within the recent exchanges and tokens kept verbatim.',
    );
  }
  const removedUnits = units.filter((u) => u.end < cut);
  const keptUnits = units.filter((u) => u.start >= cut);
  return { ok: true, index: cut, units, removedUnits, keptUnits, removedTokens: keptFrom(0) - keptFrom(cut), keptTokens: keptFrom(cut) };
}

/** Largest valid cut position ≤ p. */
function snapDown(valid: readonly boolean[], p: number): number {
  let q = Math.max(0, Math.min(p, valid.length - 1));
  while (q > 0 && !valid[q]) q--;
  return q;
}
