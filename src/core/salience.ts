// What makes a sentence worth remembering beyond its rare words: it tells an event (a person did,
// got, lost or decided something), or it is only a reaction to what the other side said ("Wow,
// that's amazing!", "Good luck with it!"), or it leans on something said before it ("It's a book
// by …", "He is one of …"). Readers of the carried context named the first as what a summary must
// keep and the other two as what makes it unreadable; the ranking (extract-facts) reads these.
// English only, written for ranking (not a linguistic reference, and from no conversation).
import { isSpaceCode } from './text';

/** Words a sentence may open on that point at something said before it: without that, a reader
 * cannot tell what the sentence is about. */
const POINTERS = new Set(
  ("it its it's it'll it'd this this'll that that's that'll that'd these those he he's he'll he'd she she's she'll she'd " +
    "they they're they'll they've they'd him her them his their there there's there'll such both which").split(' '),
);

/** A reply's opening word ("Yeah, …", "Definitely, …"): what follows it must stand alone. */
const AGREES = /^[^\p{L}]*(?:yes|yeah|yep|yup|definitely|absolutely|totally|exactly|sure|of course|true|indeed|haha|ha)\b[,!.]*\s+/iu;
/** A reply that only means something beside the question it answers ("Not yet, been busy …",
 * "Nope, …"): a reader without the question cannot tell what was not done. */
const ANSWERS_NO = /^[^\p{L}]*(?:not yet|not really|not at all|nope|nah|no)\b[,!.]/iu;

/** The first word of a text, lower case, with straight apostrophes (a leading bracketed aside,
 * quote or bullet skipped). */
function firstWord(text: string): string {
  // (Most sentences open on an ASCII word: read up to the first other ASCII character. Anything
  // else — a mark before the word, a letter past ASCII — goes to the pattern.)
  const ascii = asciiFirstWord(text);
  if (ascii !== null) return ascii;
  const m = /^[^\p{L}]*([\p{L}'’]+)/u.exec(text);
  return (m?.[1] ?? '').toLowerCase().replace(/’/g, "'");
}

const isAsciiLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** {@link firstWord} of a text that opens on ASCII letters (and straight apostrophes) ended by
 * another ASCII character or the end; null for any other text. */
function asciiFirstWord(text: string): string | null {
  if (!isAsciiLetter(text.charCodeAt(0))) return null;
  for (let j = 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (isAsciiLetter(c) || c === 39) continue;
    return c < 128 ? text.slice(0, j).toLowerCase() : null;
  }
  return text.toLowerCase();
}

/** Whether a sentence opens on a pronoun or pointer ("It's …", "That was …", "He is …"). */
export function opensOnPointer(text: string): boolean {
  // (An answer of a written-out Q&A, "A: Micro-interactions are …", needs its question too.)
  if (text.charCodeAt(1) === 58 && (text.charCodeAt(0) === 65) && text.charCodeAt(2) === 32) return true;
  // (Most sentences open on a letter that no pointer or reply starts with: no regex for them.)
  const c = text.charCodeAt(0) | 0x20;
  if (c >= 0x61 && c <= 0x7a && !POINTER_INITIALS.has(c)) return false;
  // (Nor on a CJK ideograph or a Hangul syllable: a letter, so the first word, and none of ours.)
  if (isCjkLetter(text.charCodeAt(0))) return false;
  const first = firstWord(text);
  // ("Which varieties grow well here?" asks; "Which is why …" points.)
  if (first === 'which' && /\?["'”’)\]]*$/u.test(text.trim())) return false;
  if (POINTERS.has(first)) return true;
  // (A reply's word opens the text (after non-letters) and ends before a mark or a space, so it is
  // the first word whole: any other first word matches neither pattern. "ſ" folds to "s" in them.)
  if (!REPLY_WORDS.has(first) && !first.includes('ſ')) return false;
  if (ANSWERS_NO.test(text)) return true;
  // "Definitely, those reminders help": the reply's word aside, it opens on a pointer still.
  const agrees = AGREES.exec(text);
  if (!agrees) return false;
  const rest = text.slice(agrees[0].length);
  return POINTERS.has(firstWord(rest)) || ANSWERS_NO.test(rest);
}

/** The first words of AGREES's and ANSWERS_NO's phrases. */
const REPLY_WORDS = new Set('yes yeah yep yup definitely absolutely totally exactly sure of true indeed haha ha not nope nah no'.split(' '));

/** CJK unified ideographs (and extension A) and Hangul syllables: letters of no pointer or reply. */
export const isCjkLetter = (c: number): boolean => (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3);

/** First letters of the pointers (lower case). */
const POINTER_INITIALS = new Set([...POINTERS, 'yes', 'definitely', 'absolutely', 'exactly', 'of course', 'not yet', 'nah', 'haha'].map((w) => w.charCodeAt(0)));

/** Pointers inside a sentence's first five words ("I got it from …", "I restored and modified it
 * …"): the sentence leans on the one before it, though it does not open on the pointer. */
const EARLY_POINTER = /^(?:\S+\s+){1,4}(?:it|this|that|them|these|those|him|her)\b(?!\s+(?:is|was|'s|’s)\b)/i;

/** Whether a sentence points, in its first words, at something it does not name. */
export function pointsEarly(text: string): boolean {
  return EARLY_POINTER.test(text) && !/^(?:\S+\s+){1,3}that\s+(?:I|you|we|he|she|they|it|the|a|an|my|your|our|his|her|their)\b/i.test(text);
}

/** A pointer early in a sentence that is a time, not a thing said before ("I started this week",
 * "that night we …"). */
const EARLY_TIME = /^(?:\S+\s+){0,4}(?:this|that|these|those)\s+(?:morning|afternoon|evening|night|day|days|week|weekend|weeks|month|months|year|years|season|summer|winter|spring|fall|autumn|time|moment)\b/i;

/** Whether a sentence leans, as it opens, on a thing it does not name: it opens on a pointer ("It's
 * a book by …"), or points at it in its first words ("I took that pic on my trip …", "On that
 * fridge door, I pinned …", "I had this one made …"), not at a time ("this week"). Such a line
 * read alone names nothing for a reader: between two people it is no session's line of its own
 * (thread-format.ts spread). */
export function leansOnUnnamed(text: string): boolean {
  return (opensOnPointer(text) || pointsEarly(text)) && !EARLY_TIME.test(text);
}

/** A reaction or pleasantry: praise, thanks, wishes, sympathy — the other side's news already
 * told, nothing of its own. Matched at the sentence's start. */
const REACTION =
  /^(?:(?:oh|ah|aw+|wow|woah|whoa|omg|yay|haha|lol|hey|yes|yeah|so|and|but|well)[,!.]*\s+)*(?:wow|woah|whoa|omg|yay|ouch|oof|yikes|(?:what a |such a |that['’]s a )?bummer|congrats|congratulations|kudos|bravo|cheers|thanks|thank you|(?:good|best of) luck|take care|keep (?:it up|going|up the good work|at it|pushing|rocking)|you got this|way to go|well done|nice (?:one|work|job)|good (?:job|for you|to hear)|great (?:job|work|to hear|news)|sounds (?:great|fun|awesome|amazing|lovely|good|cool|like (?:a|an|so))|(?:that|this|it)(?:'s|’s| is| was| sounds| looks| must be)\s+(?:so\s+|really\s+|super\s+|pretty\s+|such\s+an?\s+)?(?:great|awesome|amazing|cool|wonderful|fantastic|incredible|lovely|beautiful|nice|exciting|inspiring|impressive|sweet|huge|fun|tough|hard|rough|sad|terrible|awful)|(?:i'm|i am|i’m)\s+(?:so\s+|really\s+)?(?:happy|glad|proud|sorry|thrilled|stoked) (?:for|to hear|that)|glad (?:to hear|you)|sorry (?:to hear|about)|(?:i|we) (?:hope|wish) you|(?:i |we )?hope (?:your|you|it|things|everything|all)\b|i believe in you|enjoy|have (?:fun|a (?:great|good|nice))|can't wait|looking forward)\b/i;

/** A sentence that goes on from the one before it ("And there's a chance …", "Plus, it boosts …",
 * "But I got the hang of it."): its first half is elsewhere. */
const GOES_ON = /^(?:and|but|so|plus|also|however|though|although|anyway|besides|still|then|or|because)\b/i;

/** Whether a sentence opens by going on from the one before it (see GOES_ON). */
export function goesOn(text: string): boolean {
  return GOES_ON.test(text.trim());
}

/** A sentence that builds on a point made before it ("Similarly, …", "Additionally, …", "For
 * example, …", "Others focus on …", "Another option is …"): readers of assistant chats met such
 * lines with the sentence they lean on gone. Read with an assistant only: at work an agent's
 * "Additionally, I changed …" names its own step, and friends seldom talk so. */
const BUILDS_ON = /^(?:similarly|additionally|likewise|moreover|furthermore|in addition|for (?:example|instance)|on the other hand|in contrast|by contrast|conversely|instead|otherwise|meanwhile|nevertheless|nonetheless|as a result|in this case|in that case|as well|others|another|the other|the latter|the former|the rest)\b/i;

/** Whether a sentence builds on the one before it (see BUILDS_ON). */
export function buildsOn(text: string): boolean {
  return BUILDS_ON.test(text.trim());
}

/** A sentence that only shows something ("Here's my latest one! [shares a photo: …]", "Check this
 * out!", "I'll show you a pic I took when they were playing. [shares a photo: …]"): what it shows is
 * gone, its words say nothing of it. (The last form: LoCoMo recall 37.0/55.6/71.9 → 37.2/55.8/71.5,
 * event coverage at 1,000 0.583 → 0.611.) */
const SHOWS = /^(?:(?:oh|hey|look|wow|so)[,!]?\s+)?(?:here(?:['’]s| is| are)|(?:I['’]ll|I will|let me) show you|check (?:it|this|that) out|check out|look at (?:this|that|these|my)|take a look|this is (?:my|our|a pic|a photo)|that['’]s me)\b/i;

/** Whether a sentence only shows a picture or thing: opening on "Here's …" (see SHOWS) or with
 * fewer than five words of its own outside a bracketed description that names nothing (no name, no
 * number: "[shares a photo: a photo of a group of people]"). A description naming a place or a
 * figure ("Kilimanjaro summit sign, 5895 metres") tells what the words do not. */
export function onlyShows(text: string): boolean {
  let open = text.indexOf('[');
  if (open < 0) return false;
  // The text with each aside (what `/\[[^\]]*\]/g` matches: a bracket to the next closing one)
  // put as a space, read in one walk over the brackets rather than by patterns over the text.
  // (Its pieces joined once, into one flat string: a string grown by `+=` is a chain of pieces
  // that the walk over its characters flattens first.)
  const pieces: string[] = [];
  let from = 0;
  while (open >= 0) {
    const close = text.indexOf(']', open + 1);
    if (close < 0) break;
    const aside = text.slice(open, close + 1);
    if (asideNamesSomething(aside)) return false;
    pieces.push(text.slice(from, open), ' ');
    from = close + 1;
    open = text.indexOf('[', from);
  }
  pieces.push(text.slice(from));
  const own = pieces.join('').trim();
  return fewerWordsThan(own, 5) || SHOWS.test(own);
}

/** What a picture's description names: a figure, or a capitalised word after a space. */
const NAMES_SOMETHING = /\d|\s\p{Lu}/u;

/** Whether a bracketed aside ("[shares a photo: a photo of a score board with a clock]") names
 * something (see NAMES_SOMETHING) in what follows its label. */
export function asideNamesSomething(aside: string): boolean {
  const colon = aside.indexOf(':');
  return NAMES_SOMETHING.test(colon < 0 ? aside : aside.slice(colon + 2));
}
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/** Whether `text` has fewer than `n` whitespace-separated words holding a letter or a number
 * (`text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < n`), counted in one walk
 * that stops at the n-th. */
function fewerWordsThan(text: string, n: number): boolean {
  let words = 0;
  let counted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpaceCode(c)) {
      counted = false;
      continue;
    }
    if (counted) continue;
    let wordy: boolean;
    if (c < 128) wordy = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
    else {
      // (A whole code point: a letter outside the BMP is a surrogate pair.)
      const cp = text.codePointAt(i) as number;
      wordy = LETTER_OR_NUMBER.test(String.fromCodePoint(cp));
      if (cp > 0xffff) i++;
    }
    if (wordy) {
      counted = true;
      if (++words >= n) return false;
    }
  }
  return true;
}

/** Verbs and nouns of an event: a change or an action of a person with an object ("adopted a
 * puppy", "lost my job", "signed a contract"). (Short verbs end at the word: "won" read
 * "wonders", "win" "windows", "quit" "quite" as events — "Sunshine and good company can do wonders."
 * ranked as news. LoCoMo over 27 prefixes: events 0.331/0.662/0.903 → 0.335/0.662/0.907.) */
const EVENT =
  /\b(?:scor(?:ed|ing)|met (?:a|an|my|the|with|up)|celebrat(?:ed|ing)|secur(?:ed|ing)|perform(?:ed|ing)|tour(?:ed|ing)|record(?:ed|ing) (?:a|an|my|the|our)|releas(?:ed|ing)|learn(?:ed|t) (?:to|how)|took (?:a|an|my|the|up)|adopt(?:ed|ing)|lost|los(?:e|ing) (?:my|our|his|her|their)|mov(?:ed|ing) (?:to|into|out)|start(?:ed|ing)|finish(?:ed|ing)|got (?:a|an|my|the|into|in|back|married|engaged|promoted|hired|accepted)|decid(?:ed|ing)|book(?:ed|ing)|join(?:ed|ing)|sign(?:ed|ing)|won\b(?![’']t)|win(?:s|ning)?\b|bought|buy(?:ing)?|graduat(?:ed|ing)|married|engaged|divorc(?:ed|e)|passed away|died|death|funeral|born\b|hired|fired|quit(?:ting)?\b|retir(?:ed|ing)|launch(?:ed|ing)|publish(?:ed|ing)|open(?:ed|ing) (?:a|an|my|our)|sold\b|visit(?:ed|ing)|travel(?:l?ed|l?ing)|went to|trip to|return(?:ed|ing) (?:to|from)|broke|injur(?:ed|y)|diagnos(?:ed|is)|surgery|hospital|accepted|rejected|rejection|appl(?:ied|ying) (?:for|to)|receiv(?:ed|ing)|complet(?:ed|ing)|creat(?:ed|ing)|buil(?:t|ding)|paint(?:ed|ing)|wrote|writ(?:ing|ten)|ran (?:a|the|my)|volunteer(?:ed|ing)|organi[sz](?:ed|ing)|host(?:ed|ing)|attend(?:ed|ing)|enroll?(?:ed|ing)|promot(?:ed|ion)|pregnan(?:t|cy)|baby|wedding|birthday|anniversary|new (?:job|house|home|car|puppy|dog|cat|apartment|role|position)|interview(?:ed)?|(?:job|internship|scholarship|contract|deal|offer|award|prize|competition|tournament|marathon|concert|show|exhibition|workshop|class(?:es)?|course|project|business|book|album|song|degree)\b)/i;

/** How much an event, a reaction or a pointer moves a sentence's rank. */
export const EVENT_BOOST = 1.5;
export const REACTION_PENALTY = 0.3;

/** Whether a sentence only reacts to what the other side said. */
export function isReaction(text: string): boolean {
  return REACTION.test(text.trim());
}

/** Whether a sentence tells an event (and is not a question about one). */
export function tellsEvent(text: string): boolean {
  return EVENT.test(text) && !/\?["'”’)\]]*$/u.test(text.trim());
}

/** When a speaker's own news happened: lately, and said so ("last week", "yesterday", "just",
 * "finally", "two days ago"). A person opening with what happened to them since they last spoke is
 * the session's news: what a reader of the summary asks first. */
const RECENTLY =
  /\b(?:just|finally|recently|lately|yesterday|tonight|today|the other day|last (?:night|week|weekend|month|year|season|summer|winter|spring|fall|autumn|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:morning|afternoon|week|weekend|month|past)|(?:a few|a couple(?: of)?|two|three|four|five|several|\d+) (?:days|weeks|months) ago)\b/i;
/** The speaker (or their side: "my wife and I", "we") as the one the news is about. */
const OWN = /\b(?:I|I['’](?:ve|m|d)|we|we['’](?:ve|re)|my|our)\b/i;

/** Whether a sentence tells the speaker's own recent news ("My girlfriend and I had our wedding
 * last week.", "Just skyped with …", "Yesterday I gave a presentation.") or a plan with a time
 * ("I'm going to Tokyo next month"), not a question. (Plans moved LoCoMo recall 0.372/0.537/0.721
 * → 0.374/0.539/0.718 at 500/1,000/2,000 and event coverage at 2,000 0.847 → 0.868.) */
export function tellsNews(text: string): boolean {
  return (RECENTLY.test(text) || SOON.test(text)) && (OWN.test(text) || /^\W*just\b/i.test(text)) && !/\?["'”’)\]]*$/u.test(text.trim());
}

/** A speaker's plan with a time ("I'm going to Tokyo next month", "We're planning to visit …"):
 * news of what is coming, what a friend asks about the next time they talk. */
const SOON =
  /\b(?:next (?:week|weekend|month|year|season|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow|this (?:coming|upcoming)|(?:in|within) (?:a few|a couple(?: of)?|two|three|four|\d+) (?:days|weeks|months)|(?:am|'m|are|'re) (?:planning|going|about|hoping) to|plan(?:ning)? to|can['’]t wait to|looking forward to)\b/i;

/** How newsworthy a sentence of talk is: 2 an event told as recent news, 1 an event or news, 0
 * neither (the spread over sessions takes each session's most newsworthy fact first). */
export function newsRank(text: string): number {
  if (isReaction(text)) return 0;
  return (tellsEvent(text) ? 1 : 0) + (tellsNews(text) ? 1 : 0);
}

/** Rank multiplier of an event told as the speaker's recent news. (News without an event verb
 * ranks as any sentence: boosting it too cost LoCoMo recall at budget 500, 0.371 → 0.348; this
 * one moved recall 0.371/0.524/0.689 → 0.383/0.543/0.709 at 500/1,000/2,000, with the spread.) */
export const NEWS_EVENT_BOOST = 1.8;

/** A reply's word opening a sentence that needs the question it answers ("Yep, I just finished
 * …", "Nope, not yet …"). */
const REPLIES = /^\W*(?:yes|yeah|yep|yup|nope|nah|no|sure|definitely|absolutely|totally|exactly|of course|not yet|indeed)\b\s*[,!.…-]/i;

/** Whether a sentence of talk leans on what a block does not hold: a thing it does not name ("I
 * snapped that pic …", leansOnUnnamed) or the question it answers ("Yep, I just finished …"). */
export function leansOnAbsent(text: string): boolean {
  return leansOnUnnamed(text) || REPLIES.test(text);
}

/** A name inside a sentence (a capital after a word or a comma; not "I"), or a figure. */
const NAMES = /[\p{L}\p{N},;:'’)-]\s+(?!I\b|I['’])\p{Lu}|\d/u;
/** The speaker or the one spoken to, anywhere in the sentence. */
const PERSON = /\b(?:I|I['’](?:ve|m|d|ll)|me|my|mine|we|we['’](?:ve|re|ll|d)|our|us|you|your|you['’](?:ve|re|ll|d))\b/i;

/** Whether a sentence of talk is a generalisation: no person in it, no name, figure or event
 * ("Sunshine and good company can do wonders.", "Long walks with friends are a lovely way to spend
 * an afternoon."): nothing a later reader could hold on to. */
export function generalises(text: string): boolean {
  return !PERSON.test(text) && !NAMES.test(text) && !tellsEvent(text) && !tellsNews(text);
}

/** What a generalisation keeps of its rank: next to nothing, so the room goes to what a person did
 * or said of themselves. */
export const GENERIC_RANK = 0.05;

/** The salience multiplier of a sentence of talk (not of an agent at work, whose facts are read by
 * other rules): events and news up, reactions down. */
export function salienceOf(text: string): number {
  if (isReaction(text)) return REACTION_PENALTY;
  // (A line leaning on what the block does not hold ranks as a plain sentence, not as the event
  // it tells: "Yep, I just finished that whole series." and "I had this one made …"
  // stood for their sessions, read as naming nothing. LoCoMo events over 27 prefixes
  // 0.318/0.648/0.898 → 0.331/0.662/0.903 at 500/1,000/2,000, recall within 0.004.)
  if (leansOnAbsent(text)) return 1;
  // (Readers marked "Sunshine and good company can do wonders." as filler standing for its session.
  // LoCoMo over 27 prefixes: recall within 0.002, events 0.662/0.907 → 0.658/0.902 at 1,000/2,000.)
  if (generalises(text)) return GENERIC_RANK;
  if (!tellsEvent(text)) return 1;
  return tellsNews(text) ? NEWS_EVENT_BOOST : EVENT_BOOST;
}

/** A user's remark on what the assistant told them ("I had no idea that …", "I'm surprised that
 * …", "I'm glad to hear that …", "I think it's fascinating …"): said in the first person, but about
 * the answer, not about the user — no fact of theirs to remember. */
const REMARK =
  /^(?:(?:wow|oh|ah|hmm|well|yeah|yes|ok(?:ay)?|thanks|thank you)[,!.]*\s+)*(?:I (?:had no idea|never knew|didn['’]t know|did not know|never thought|never realized|never realised|didn['’]t realize|didn['’]t realise|did not realize|(?:still )?can['’]t believe (?!I\b|I['’]|my\b|we\b|our\b|it['’]s been)|have always wondered|wish (?:more|there|people|companies)|agree|totally agree|can see (?:why|how)|(?:really )?(?:love|like|appreciate|admire) (?:how|that|the way)|find it (?:\w+ )?(?:interesting|fascinating|amazing|surprising))|I['’]ve always wondered|I['’]m (?:so |really |very )?(?:surprised|amazed|impressed|fascinated|intrigued|glad to hear|happy to hear|shocked) (?:that|by|to|at|how)|I (?:think|guess|feel|believe) (?:that )?(?:it['’]s|it is|this is|that['’]s|that is|they['’]re|they are) (?:so |really |very |pretty |quite )?(?:interesting|fascinating|amazing|great|important|crucial|essential|impressive|surprising|inspiring|cool|awesome|incredible|good))/i;

/** The user telling the assistant how to work ("I will then ask you to rate …", "I want you to act
 * as …", "You are to give a score …"): an instruction, not a fact about the user. */
const INSTRUCTS = /\b(?:I(?:['’]ll| will| am going to| want you to| need you to| would like you to)(?: then| now| also| first)? (?:ask|give|send|provide|tell|show|paste|share with) you\b|I want you to\b|I need you to\b|you (?:are to|will then|should then|must then)\b|I will respond\b|(?:write|give|make|create|generate|rewrite|redesign|format|list|translate|draft|provide|send|show) (?:me|us)\b|my (?:next|first|second|third|last|final) (?:prompt|request|question|task|command) is\b|you are my \w+)/i;

/** The user saying they will take up what the answer offered ("I'll definitely check out the
 * resources you suggested.", "I'll also consider the factors you mentioned."): about the answer. */
const TAKES_UP = /^(?:(?:ok(?:ay)?|great|thanks|thank you|yes|yeah|sure)[,!.]*\s+)*(?:I['’]ll|I will|I['’]m going to|I am going to|I think I['’]ll|I['’]d like to|I['’]d love to)\b[^.!?]*\byou(?:['’]ve)? (?:suggested|mentioned|recommended|provided|listed|gave|shared|described|outlined|proposed)\b/i;

/** Whether a user's sentence instructs the assistant how to work (see INSTRUCTS). */
export function instructsAssistant(text: string): boolean {
  return INSTRUCTS.test(text);
}

/** A user's sentence in an assistant's voice ("I'm glad I could help you with setting up the
 * backup …", "I hope this helps!"): a simulated or pasting user echoing an answer back. Readers
 * met it under "About the user" as a fact of the user's own. */
const SPEAKS_AS_ASSISTANT = /^(?:I['’]m|I am) (?:so |really )?(?:glad|happy|pleased) (?:that )?I (?:could|was able to|can) (?:help|assist)\b|^(?:I['’]m|I am) (?:always )?(?:glad|happy) to (?:help|assist)\b|\bI hope (?:this|that|my (?:answer|response|explanation)) (?:helps|helped|was helpful)\b/i;

/** Whether a user's first-person sentence only remarks on the answer (see REMARK), or says what
 * the answer's author would (SPEAKS_AS_ASSISTANT). */
export function remarksOnAnswer(text: string): boolean {
  const t = text.trim();
  return REMARK.test(t) || SPEAKS_AS_ASSISTANT.test(t) || TAKES_UP.test(t) || (LIKES_ANSWER.test(t) && !OWN_AFTER.test(t.replace(LIKES_ANSWER, ''))) || (ANSWER_NAMED.test(t) && !PICKS.test(t));
}

/** The user liking what the answer proposed, or leaning on it by a pointer ("I like the idea of a
 * walnut shelf, it sounds warm", "I feel like those are the rooms that get messy
 * first"): readers found such lines under "About the user". */
const LIKES_ANSWER = /^(?:(?:wow|oh|ah|hmm|well|yeah|yes|ok(?:ay)?|thanks|thank you)[,!.]*\s+)*I (?:really |also |definitely )?(?:like|love|appreciate) the (?:idea|suggestion|tip) (?:of|about|to)\b|^(?:\w+[,!.]?\s+)?I (?:feel|think) (?:like )?(?:those|these|they) (?:are|were|would|will|sound|seem|look)\b/i;
/** Words that tell a fact of the user's own beside the liking ("I like the idea of joining a choir
 * since I love singing. However, my last try …"): it stays theirs. */
const OWN_AFTER = /\b(?:my|since|because|I(?:['’]ve| have| had| love| am|['’]m| used to))\b/i;
/** The user picking out of the answer ("I love these ideas, especially the plum cake"): what
 * they chose, kept. */
const PICKS = /\b(?:especially|particularly|in particular|above all)\b/i;
/** The answer named in the user's sentence by a pointer ("… just thinking about incorporating
 * these practices into my routine"). */
const ANSWER_NAMED = /\b(?:these|those|your) (?:\w+ )?(?:tips|suggestions|ideas|practices|options|recommendations|strategies|steps|resources|techniques|pointers)\b/i;

/** The speaker saying who they are: their work, their role, where they live, what they do. */
const IDENTITY =
  /\b(?:I['’]m an? |I am an? |I work(?:ed)? (?:as|at|for|in|on)\b|my (?:job|work|career|team|shop|band|business|company|studio|class(?:es)?|school|degree|club|boss|coach)\b|I play(?:ed)? (?:for|on|in|with)\b|I (?:run|own|teach|study|coach|manage|live in|grew up in|moved to|signed with|joined|started (?:my|a|an))\b|I['’]ve been (?:a|an|working|playing|writing|teaching|running)\b)/i;

/** Whether a first-person sentence says who the speaker is (see IDENTITY), not a question. */
export function saysWhoTheyAre(text: string): boolean {
  return IDENTITY.test(text) && !/\?["'”’)\]]*$/u.test(text.trim());
}

/** What a speaker owns, runs or works as — the standing facts of who they are ("I finally opened
 * my own car maintenance shop!", "I work as a nurse", "I run a bakery"), as against what they did
 * once. The spread takes it first for the speaker's "About <name>" (thread-format.ts). */
const PROFILE =
  /\b(?:my own (?:[\w-]+ ){0,3}(?:shop|business|company|studio|store|restaurant|bakery|cafe|band|label|brand|clinic|practice|garage|place|home|house|team|class(?:es)?|school|charity|foundation)|I (?:own|run|manage|founded|opened|started) (?:a|an|my|our|my own) (?:[\w-]+ ){0,3}(?:shop|business|company|studio|store|restaurant|bakery|cafe|band|label|brand|clinic|practice|garage|team|class(?:es)?|school|charity|foundation)|I work(?:ed)? (?:as|at|for)\b|I['’]m an? (?:[\w-]+ ){0,2}(?:player|guard|forward|teacher|nurse|doctor|engineer|mechanic|artist|musician|singer|rapper|writer|author|student|designer|developer|chef|coach|counselor|counsellor|lawyer|manager|owner|painter|photographer|dancer|volunteer|mom|dad|mother|father|parent))\b/i;

/** How much a first-person sentence says what its speaker owns, runs or works as (see PROFILE):
 * 1 when it does, else 0; not a question. */
export function profileRank(text: string): number {
  return PROFILE.test(text) && !/\?["'”’)\]]*$/u.test(text.trim()) ? 1 : 0;
}
