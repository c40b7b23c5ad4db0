// Atomic units: the groups of messages that compaction removes or keeps together. Sending an
// assistant tool call without its results (or a result without its call) is an error for every
// provider, so the cut between "compacted" and "kept" may only fall between whole units.
import type { ChatMessage } from './messages';

export type UnitKind = 'user' | 'assistant' | 'system' | 'orphan-tool';

export interface MessageUnit {
  kind: UnitKind;
  /** Indices into the message list, ascending. An assistant unit's tool results need not be
   * adjacent to it: results may arrive out of order or interleaved with other messages. */
  indices: number[];
  /** First and last index of the unit. */
  start: number;
  end: number;
}

/**
 * Groups messages into units that partition the list exactly: a user message; an assistant
 * message with every tool result answering one of its calls; a system message; a tool result
 * that answers no earlier call, alone. Units are returned in order of their first message.
 */
export function groupUnits(messages: readonly ChatMessage[]): MessageUnit[] {
  const units: MessageUnit[] = [];
  // For each call id, the units whose assistant made a call with it, oldest first. Ids are not
  // always unique (some local models reuse `call_0`), so a result goes to the newest earlier
  // call with its id that has no result yet, else to the newest one with that id.
  const owners = new Map<string, number[]>();
  const answered = new Set<string>();

  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const candidates = owners.get(message.toolCallId);
      if (candidates?.length) {
        let owner = candidates[candidates.length - 1] as number;
        for (let i = candidates.length - 1; i >= 0; i--) {
          const unitIndex = candidates[i] as number;
          if (!answered.has(`${unitIndex}\u0000${message.toolCallId}`)) {
            owner = unitIndex;
            break;
          }
        }
        answered.add(`${owner}\u0000${message.toolCallId}`);
        const unit = units[owner] as MessageUnit;
        unit.indices.push(index);
        unit.end = index;
        return;
      }
      units.push({ kind: 'orphan-tool', indices: [index], start: index, end: index });
      return;
    }
    const unitIndex = units.length;
    units.push({ kind: message.role, indices: [index], start: index, end: index });
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        const list = owners.get(call.id);
        if (list) {
          if (list[list.length - 1] !== unitIndex) list.push(unitIndex);
        } else {
          owners.set(call.id, [unitIndex]);
        }
      }
    }
  });
  return units;
}

/**
 * For each position p in 0…n, whether a cut there (messages before p compacted, from p kept)
 * splits no unit. Positions 0 and n are always valid.
 */
export function validCutPositions(units: readonly MessageUnit[], messageCount: number): boolean[] {
  // unitEnd[i]: last index of the unit message i belongs to.
  const unitEnd = new Array<number>(messageCount).fill(0);
  for (const unit of units) for (const i of unit.indices) unitEnd[i] = unit.end;
  const valid = new Array<boolean>(messageCount + 1).fill(false);
  valid[0] = true;
  let maxEnd = -1;
  for (let p = 1; p <= messageCount; p++) {
    maxEnd = Math.max(maxEnd, unitEnd[p - 1] as number);
    valid[p] = maxEnd < p;
  }
  return valid;
}

/**
 * Ids of every message in a unit that holds one of `ids`: a pinned assistant tool call keeps its
 * results, and a pinned result its call and the other results, so what is sent stays paired.
 */
export function wholeUnits(messages: readonly ChatMessage[], ids: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  if (!ids.size) return out;
  for (const unit of groupUnits(messages)) {
    if (!unit.indices.some((i) => ids.has((messages[i] as ChatMessage).id))) continue;
    for (const i of unit.indices) out.add((messages[i] as ChatMessage).id);
  }
  return out;
}
