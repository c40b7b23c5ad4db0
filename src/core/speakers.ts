// Who the two sides are, when the text names them: a greeting names the other side ("Hey Tim!",
// "Thanks, John"), an introduction the speaker ("I'm Alex", "my name is Sam"). Between two people
// (talk), the block then labels facts with their names and says who is who in one line, so a
// reader does not meet a friend called "Assistant". Pure; English greetings only.
import { leadingStamp } from './dates';
import type { ChatMessage } from './messages';
import { GENERIC_WORDS, STOPWORDS } from './words';

export interface Speakers {
  user?: string;
  assistant?: string;
}

/** A greeting or thanks that opens a message, then the name it is said to. */
const ADDRESS = /^(?:hey|hi|hello|hiya|yo|howdy|thanks|thank you|thx|congrats|congratulations|good (?:morning|afternoon|evening)|wow|whoa|sorry|dear|oh|aw+|great|awesome|nice|cool)[,!.]?\s+([A-Z][a-z]{1,15})\b(?![''’]s\b)/i;
/** An introduction by the speaker. */
const INTRODUCTION = /(?:^|[.!?]\s+)(?:I['’]m|I am|my name is|this is|call me)\s+([A-Z][a-z]{1,15})\b(?=[\s,.!?]|$)/;
/** Capitalised words a greeting is said with that are no names. */
const NOT_NAMES = new Set('there everyone everybody all guys man buddy bro dude mate friend friends pal folks team sir madam again so and but just congrats thanks wow glad happy sorry really totally'.split(' '));

function nameOf(word: string | undefined): string | null {
  if (!word) return null;
  const lower = word.toLowerCase();
  if (NOT_NAMES.has(lower) || STOPWORDS.has(lower) || GENERIC_WORDS.has(lower)) return null;
  return word[0]?.toUpperCase() + word.slice(1);
}

/** The names the messages give each side: the one given most often (at least twice when more
 * than one name competes), none when unsure. */
export function findSpeakers(messages: readonly ChatMessage[]): Speakers {
  const votes = { user: new Map<string, number>(), assistant: new Map<string, number>() };
  const vote = (side: 'user' | 'assistant', name: string | null): void => {
    if (name) votes[side].set(name, (votes[side].get(name) ?? 0) + 1);
  };
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const text = m.content.slice(leadingStamp(m.content).length, 400).trimStart();
    const other = m.role === 'user' ? 'assistant' : 'user';
    vote(other, nameOf(ADDRESS.exec(text)?.[1]));
    const intro = INTRODUCTION.exec(text)?.[1];
    // ("I'm Sorry" is no name: the introduction needs a name the greeting words are not.)
    vote(m.role, intro && /^[A-Z]/.test(intro) ? nameOf(intro) : null);
  }
  const pick = (side: Map<string, number>): string | undefined => {
    const ranked = [...side].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const [first, second] = ranked;
    if (!first) return undefined;
    if (second && (first[1] < 2 || first[1] === second[1])) return undefined;
    return first[0];
  };
  const out: Speakers = {};
  const user = pick(votes.user);
  const assistant = pick(votes.assistant);
  if (user) out.user = user;
  if (assistant && assistant !== user) out.assistant = assistant;
  return out;
}

/** The one line that says who is who: "Speakers: Tim (as user), John (as assistant)". '' when
 * neither side is named. ("as": the chat's roles, which the kept messages carry; readers took a
 * bare "John (assistant)" for saying the friend is an assistant.) */
export function speakersLine(speakers: Speakers | undefined): string {
  if (!speakers) return '';
  const parts = [speakers.user ? `${speakers.user} (as user)` : '', speakers.assistant ? `${speakers.assistant} (as assistant)` : ''].filter(Boolean);
  return parts.length ? `Speakers: ${parts.join(', ')}` : '';
}
