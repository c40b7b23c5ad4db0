// A thread's head in its own words (threads.ts decides the threads): the request that opened it
// when it reads as a title, else its most distinctive phrases — runs of words said again, or names,
// found verbatim where they were said, never a fragment of a longer name nor a calendar word. The
// heads are what a reader scans first, so a phrase that may be a sentence's fragment is left out.
import type { Sentence } from './extract-sentences';
import { isRequest } from './extract-goal';
import { PASTED_SENTENCES } from './fact-prior';
import { QUESTION } from './traits';
import { isContentWord } from './vocab';
import { GENERIC_WORDS, STOPWORDS } from './words';
import { contentWords } from './word-scan';

/** Most phrases in a head, and most words in one. */
export const HEAD_PHRASES = 3;
/** Between two people, the session's phrases kept as its topics (ThreadLine.topics): the head
 * shown names those its lines carry (session-heads.ts). */
export const TALK_TOPICS = 8;
const PHRASE_WORDS = 4;
/** Longest request (words) that heads its thread; a longer one is headed by its phrases. */
const HEAD_REQUEST_WORDS = 30;

/** Words that end a phrase: function words and words too common to name a topic. */
const BREAKS = new Set([...STOPWORDS, ...GENERIC_WORDS]);
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
/** Words that qualify rather than name ("various aspects", "several lockers"): no phrase starts or
 * ends on one, nor on an adverb in -ly. */
const QUALIFIERS = new Set('various several certain many few such whole entire main real truly quite rather lots plenty couple bunch kind sort type totally currently recently finally per ones thing things thingy stuff'.split(' '));
/** Sign-offs and wishes said at every parting ("Stay safe!", "Take care"): said again, but no topic. */
const PLEASANTRY = /^(?:stay (?:safe|tuned|strong|positive)|safe (?:trip|travels?|flight|journey|drive)|take care|good luck|best (?:wishes|of luck)|have fun|well done|keep (?:going|rocking|it up|pushing)|talk soon|see you|catch you|cheers)$/i;
const qualifies = (w: string): boolean => QUALIFIERS.has(w) || (w.length > 4 && w.endsWith('ly'));

/** A word of a phrase candidate: lower case (apostrophes dropped), where it stands, whether it is
 * a name, and its weight. */
interface RunWord {
  lower: string;
  start: number;
  end: number;
  name: boolean;
  weight: number;
}

const CALENDAR = new Set('monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october november december today tomorrow yesterday'.split(' '));

/** Whether the word at [start, end) stands beside another capitalised word of a name (next to
 * it, or across "of" / "the"). Bounded look-around: a few words either side. */
function partOfLongerName(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 30), start);
  const after = text.slice(end, end + 30);
  return /\p{Lu}[\p{L}'’]*\s+(?:(?:of|the|and|de|la|von|van)\s+){0,2}$/u.test(before) || /^\s+(?:(?:of|the|and|de|la|von|van)\s+){0,2}\p{Lu}/u.test(after);
}

/** Whether the text before `at` ends a sentence (spaces aside): a capital there starts one. */
function afterStop(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i >= 0 && (text[i] === '.' || text[i] === '!' || text[i] === '?');
}

/** A thread's most distinctive phrases (the best `max`, best first), in its own words and case (each a run of words of one
 * sentence, separated by single spaces only, so it is found verbatim where it was said). */
export function phrasesOf(sentences: readonly Sentence[], weight: (w: string) => number, common: (w: string) => boolean, max = HEAD_PHRASES): string[] {
  const scored = new Map<string, { text: string; score: number; n: number; named: boolean }>();
  for (const s of sentences) {
    // A bracketed aside (a photo's caption) describes a picture, not what was talked about.
    const text0 = s.text.includes('[') ? s.text.replace(/\[[^\]]*\]/g, (m) => ' '.repeat(m.length)) : s.text;
    WORD.lastIndex = 0;
    let run: RunWord[] = [];
    const flush = (): void => {
      // (Words of a run are separated by one space each: every sub-run is a verbatim phrase.)
      for (let len = Math.min(PHRASE_WORDS, run.length); len >= 1; len--) {
        for (let i = 0; i + len <= run.length; i++) {
          const first = run[i] as RunWord;
          const lastWord = run[i + len - 1] as RunWord;
          if (qualifies(first.lower) || qualifies(lastWord.lower)) continue;
          // A name's article or preposition ("The Name", "Of the Wind") is no edge of a phrase
          // ("New York City" is: a common word, capitalised inside a name).
          if ((first.name ? STOPWORDS : BREAKS).has(first.lower) || (lastWord.name ? STOPWORDS : BREAKS).has(lastWord.lower)) continue;
          // Nor does a phrase start on a verb's -ing form ("exploring endorsement opportunities").
          if (first.lower.endsWith('ing') && !first.name) continue;
          // Nor on a verb's past form ("liked Under Armour", "mansion surrounded"), a name aside.
          if ((first.lower.endsWith('ed') && !first.name) || (lastWord.lower.endsWith('ed') && !lastWord.name)) continue;
          // One word alone names a topic only when it is a name ("difference" names nothing).
          if (len === 1 && !first.name) continue;
          // Nor a name's one word cut from a longer name ("Armour" of "Under Armour", "Thrones" of
          // "Game of Thrones").
          if (len === 1 && partOfLongerName(text0, first.start, first.end)) continue;
          // Nor a day's or month's name, nor a word most segments say (the speakers' names).
          if (len === 1 && (CALENDAR.has(first.lower) || common(first.lower))) continue;
          // Nor a short title-case word alone ("Cal"): a nickname or a fragment, not a topic.
          if (len === 1 && first.end - first.start <= 3 && !/^\p{Lu}{2,}$/u.test(s.text.slice(first.start, first.end))) continue;
          // Nor a name and one short word after it ("Tokyo react", "Frank Ocean ends", "Douglas
          // prior"): more often the name and the verb of a sentence than a topic.
          if (len >= 2 && !lastWord.name && lastWord.end - lastWord.start <= 6 && run.slice(i, i + len - 1).every((w) => w.name)) continue;
          const text = s.text.slice(first.start, lastWord.end);
          if (PLEASANTRY.test(text)) continue;
          const key = text.toLowerCase();
          let score = 0;
          for (let k = i; k < i + len; k++) score += (run[k] as RunWord).weight;
          score *= 1 + 0.25 * (len - 1);
          const e = scored.get(key);
          if (e) {
            e.n++;
            e.score = Math.max(e.score, score);
          } else {
            let named = false;
            for (let k = i; k < i + len; k++) named ||= (run[k] as RunWord).name;
            scored.set(key, { text, score, n: 1, named });
          }
        }
      }
      run = [];
    };
    let m: RegExpExecArray | null;
    let last = -1;
    while ((m = WORD.exec(text0))) {
      const w = m[0];
      const lower = w.toLowerCase().replace(/’/g, "'");
      const glued = last >= 0 && text0.slice(last, m.index) === ' ';
      if (!glued) flush();
      // A capitalised word inside the sentence is a name ("New York City"), whatever its word.
      const name = m.index > 0 && /^\p{Lu}/u.test(w) && w !== 'I' && !afterStop(text0, m.index);
      if ((!name && BREAKS.has(lower.replace(/'/g, ''))) || w.length < 3 || /^\d+$/.test(w) || /^i'/.test(lower)) {
        flush();
        last = -1;
        continue;
      }
      const low = lower.replace(/'/g, '');
      run.push({ lower: low, start: m.index, end: m.index + w.length, name, weight: weight(low) * (name ? 1.5 : 1) });
      last = m.index + w.length;
    }
    flush();
  }
  // A phrase said more than once in the thread names it better than one said in passing.
  // A phrase said once, with no name in it ("possibilities pumps", "couldn't read due"), is as
  // likely a fragment of a sentence as a topic: a head takes only phrases said again, or names.
  const ranked = [...scored.values()].filter((e) => e.n >= 2 || e.named).map((e) => ({ ...e, score: e.score * (1 + 0.7 * Math.min(3, e.n - 1)) }));
  ranked.sort((a, b) => b.score - a.score || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const out: string[] = [];
  const used = new Set<string>();
  for (const p of ranked) {
    if (out.length >= max || p.score <= 0) break;
    // (A word is the same word with its possessive — "Boston's music scene" beside "Boston" — and
    // a name's initials stand for it: "visit NYC" beside "New York City" says the place twice.)
    const words = p.text.toLowerCase().split(' ').map(withoutPossessive);
    if (words.some((w) => used.has(w))) continue;
    for (const w of words) used.add(w);
    const initials = initialsOf(p.text);
    if (initials) used.add(initials);
    out.push(p.text);
  }
  return out;
}

/** A lower-case word without a possessive ending ("boston's" → "boston"). */
const withoutPossessive = (w: string): string => w.replace(/['’]s$/, '');

/** The initials of a name of two words or more, each capitalised ("New York City" → "nyc"); '' for
 * any other phrase. */
function initialsOf(phrase: string): string {
  const words = phrase.split(' ');
  return words.length >= 2 && words.every((w) => /^\p{Lu}/u.test(w)) ? words.map((w) => w[0]).join('').toLowerCase() : '';
}

/** The request as a head: its first sentence, when short enough to read as a title. */
export function requestHead(opener: readonly Sentence[]): string {
  const first = opener[0];
  if (!first || first.wc > HEAD_REQUEST_WORDS || first.wc < 4) return '';
  // "Can you help me with that?" says nothing of what it asks: the thread's phrases head it then.
  // (Two words of content name a request: "I'm looking for some gift ideas for my colleagues.")
  // Three words past the function words, though: "Can you suggest some recipes?" heads nothing.
  if (first.ids.filter(isContentWord).length < 2 || wordsPastStopwords(first.text) < 3 || /\b(?:that|this|it|them|those|these)\?*["'”’)]*[?.!]?$/i.test(first.text)) return '';
  if (notTitle(first.text)) return '';
  // (Nor a request in the middle of a long text the user pasted — an e-mail's "If you have
  // received this message in error, please notify the sender" —: the user's own request opens or
  // closes what they paste.)
  if (first.of >= PASTED_SENTENCES && first.index >= 2 && first.index < first.of - 2) return '';
  return first.text;
}

/** A sentence that reads as no title, whatever its words: one opening on markup or a bracket (a
 * prompt template's "[INFO : …]", a heading "### 17 August 2023:"), or whose words past the dates
 * and numbers are fewer than three ("17 August 2023: Tuesday"). */
function notTitle(text: string): boolean {
  if (/^\s*[[(#<{|>*_=~]/.test(text)) return true;
  let words = 0;
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (!/\d/.test(w) && !CALENDAR.has(w) && !STOPWORDS.has(w.replace(/[’]/g, "'"))) words++;
  }
  return words < 3;
}

/** Words of a text that are not function words. */
function wordsPastStopwords(text: string): number {
  let n = 0;
  for (const m of text.matchAll(WORD)) if (!STOPWORDS.has(m[0].toLowerCase().replace(/[’]/g, "'"))) n++;
  return n;
}

/** Greetings and thanks opening a message ("Hi there :)", "Thanks a lot!"): no head. */
const GREETING = /^(?:hi|hey|hello|hiya|good (?:morning|afternoon|evening)|how are you|thanks|thank you|great|ok(?:ay)?|yes|no|sure)\b/i;

/** With an assistant, a session opened by the user without a request the patterns know ("One
 * tweet with three reflective questions on evaluating personal impact"): its opening sentence heads
 * it as a request would — what the user opened the session with says what it was about, where
 * keyword phrases did not describe the lines under them. Not a greeting, nor a sentence leaning
 * on what came before. */
export function openingHead(opening: readonly Sentence[]): string {
  const first = opening[0];
  // (Nor one opening on a preposition or a conjunction: "from the book … by David Kincade." is the
  // tail of something said before.)
  if (!first || GREETING.test(first.text) || /^(?:it|this|that|they|these|those|he|she|there|from|and|but|or|so|because|with|of|in|on|at|to|for|by)\b/i.test(first.text)) return '';
  // (Nor the first line of a long text the user pasted — a game's rules, an e-mail, an article —
  // unless it asks for something: "Swords - Chance to deflect incoming attack" names no topic.)
  if (first.of >= PASTED_SENTENCES && !(first.traits & QUESTION) && !isRequest(first)) return '';
  return requestHead(opening);
}

/** The first request of the user among a thread's sentences that reads as a title (requestHead),
 * does not follow up on an answer and shares a content word with the thread's phrases; ''. */
export function topicalRequest(sentences: readonly Sentence[], phrases: readonly string[]): string {
  const named = new Set(phrases.flatMap((p) => contentWords(p)));
  for (const s of sentences) {
    if (s.role !== 'user' || !isRequest(s) || followsUp([s])) continue;
    const head = requestHead([s]);
    if (head && contentWords(head).some((w) => named.has(w))) return head;
  }
  return '';
}

/** The assistant saying what the user's text is ("This appears to be an email sent by …", "This
 * is a cover letter for …"): the opening sentence of its first reply in a thread, when it does. */
const DESCRIBES = /^(?:this|the (?:text|email|e-mail|message|passage|article|letter|document|code|script|poem|story|essay)|what you (?:shared|sent|pasted|provided)) (?:appears to be|seems to be|looks like|reads like|is) (?:an?|the) /i;
/** Most words of such a head. */
const DESCRIBED_WORDS = 30;

export function describedText(sentences: readonly Sentence[]): string {
  const first = sentences.find((s) => s.role === 'assistant');
  return first && first.index === 0 && first.wc <= DESCRIBED_WORDS && DESCRIBES.test(first.text) ? first.text : '';
}

/** Words by which a request points back at what was just said: "these", "the above", "again",
 * "the same", or a pointer ending it ("Can you shorten it?"). */
const POINTS_BACK = /\b(?:these|those|the above|again|the same|another one|instead)\b|\b(?:it|this|that|them)\s*[?.!]*$/i;

/** Whether a request (its sentences) follows up on the answer before it: its first sentence points
 * back (POINTS_BACK). */
export function followsUp(request: readonly Sentence[]): boolean {
  const first = request[0];
  return first !== undefined && POINTS_BACK.test(first.text);
}
