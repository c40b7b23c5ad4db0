// A tool result made of quoted texts under a heading, within a token budget: each text verbatim
// under its label, and the first that does not fit whole cut at a word and marked with how to read
// the rest. Shared by the history search and the past conversations search (one rule, one place).
import { estimateTokens } from '../core/tokens';
import { truncateAtWord } from '../core/text';

export interface Quoted {
  label: string;
  text: string;
  /** Said after a text cut to fit: where the whole of it can be read. */
  rest: string;
}

/** Least room (estimated tokens) worth quoting the start of a text in. */
const MIN_CUT_ROOM = 60;

export function fitQuoted(heading: string, items: readonly Quoted[], budget: number): string {
  const parts = [heading];
  let room = budget - estimateTokens(heading);
  for (const item of items) {
    const whole = `${item.label}\n${item.text}`;
    const tokens = estimateTokens(whole);
    if (tokens <= room) {
      parts.push(whole);
      room -= tokens;
      continue;
    }
    if (room < MIN_CUT_ROOM) break;
    const chars = Math.floor((item.text.length * (room - 40)) / Math.max(1, tokens));
    parts.push(`${item.label}\n${truncateAtWord(item.text, chars)} [… cut to fit; ${item.rest}]`);
    break;
  }
  return parts.join('\n\n');
}
