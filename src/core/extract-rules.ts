// The task's standing rules: the sentences of the task message that bind what follows ("must",
// "never", "do not", "only", "cannot"; what may be modified; how to submit), in their own words,
// for the Constraints section. An agent harness writes them into its template (`<instructions>`),
// which the sentence pass leaves out of the goal and the facts as the same in every run; but a
// model carrying on from the block must still follow them, so they are read here, once, apart
// from the template's examples, response-format advice and environment notes.
import { memoOf } from './message-memo';
import { tagTracker } from './extract-sentences';
import type { ChatMessage } from './messages';
import type { SourcedLine } from './record';
import { balancedMarkup, squash, truncateAtWord, unescapedBreaks, wordCount } from './text';
import { splitSentences } from './sentence-split';

/** Most rules one task message gives, and the longest rule kept (a lead-in with its list). */
const MAX_RULES = 14;
const MAX_RULE_CHARS = 320;

/** A sentence that binds: an obligation, a prohibition, a limit. */
const BINDING = /\b(?:must|never|do not|don['’]t|only|cannot|can['’]t|may not|should not|shouldn['’]t|exact(?:ly)?|required|specifically|forbidden|not allowed)\b/i;
/** A rule the user states in their own message (outside a template): it opens as an instruction. */
const USER_RULE = /^(?:please\s+)?(?:you (?:must|may not|cannot|can['’]t|should not|shouldn['’]t|need to|have to)|(?:do not|don['’]t|never|only|always|make sure|be sure|remember to)\b)/i;
/** A binding word written in capitals ("You MUST …", "Do NOT …"): a rule wherever it stands. */
const SHOUTED = /\b(?:MUST|NEVER|ONLY|NOT|CANNOT)\b/;
/** What a line holding a sentence that USER_RULE or SHOUTED matches must hold somewhere (their
 * words, without the boundaries and the sentence start): no match of either, no rule in the line. */
const MAY_OPEN_USER_RULE = /you |do not|don['’]t|never|only|always|make sure|be sure|remember to/i;
const MAY_SHOUT = /MUST|NEVER|ONLY|NOT|CANNOT/;
/** How to talk to the harness (the reply's form), not a rule of the task. */
const FORMAT = /\b(?:your response|each response|responses?\b|reply|replies|reasoning|THOUGHT|tool calls?|format(?:ting|ted)?\b|markdown|at least one (?:bash )?(?:command|tool))/i;
/** Notes about the environment the agent works in. */
const ENVIRONMENT = /\b(?:environment|subshell|non-interactive|interactive|flags?|persistent|installed|install it)\b/i;
/** Headings and tags whose text is example, format or environment, not rules. */
const SKIPPED_PART = /example|environment|format|workflow|tips?\b|setup|details/i;
/** "MODIFY: …", "DO NOT MODIFY: …": a boundary stated as a capitalised label. */
const LABEL_RULE = /^[A-Z][A-Z ]{2,30}:\s+\S/;
const HEADING = /^\s*(?:#{1,6}\s+(.+)|\*\*([^*]+)\*\*:?\s*)$/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.+)$/;
const FENCE = /^\s*(?:```|~~~)/;
/** A step's title ("Step 3: Submit (EXACT command required)"): the rules are in the step's text. */
const STEP = /^(?:step|phase|part)\s+\d+\b/i;
/** Words under which a rule joins the rule on the line before it. */
const SHORT_RULE = 6;
/** Most words of the list items a lead-in rule carries. */
const LIST_WORDS = 30;

/** A binding word in lower case, stronger than "only" or "exact". */
const STRONG = /\b(?:must|never|do not|don['’]t|cannot|can['’]t|may not|should not|shouldn['’]t|not allowed|forbidden|required)\b/i;
/** What a rule is about that a model continuing the work most needs: what it may change, how it
 * hands in. */
const SUBJECT = /\b(?:modif\w*|edit\w*|chang\w*|submit\w*|commit\w*|push\w*|delet\w*|tests?|patch)\b/i;
/** A rule that opens as a check or advice ("Inspect patch.txt to confirm it only contains …"): a
 * step of a workflow more than a rule. */
const ADVICE = /^(?:inspect|verify|confirm|check|review|consider|try|if|feel free|remember|you can|you may)\b/i;
/** Least strength of a rule from a harness's template. */
/** Advice and sign-offs in a rule's words ("Remember to have fun and be patient with the process.",
 * "… and don't hesitate to reach out", "Make sure they know coins like yours."): said to a reader
 * about their own affairs — a simulated user pasting an assistant's answer back —, no rule for the
 * one who answers. */
const TO_READER = /\b(?:don['’]t hesitate to|do not hesitate to|feel free to|if you have any (?:more |other |further )?questions|have fun\b|be patient with|good luck|you['’]re ready to|like yours\b)/i;
export const advisesReader = (text: string): boolean => TO_READER.test(text);

const HARNESS_LEAST = 2;
/** A command to run, in backticks. */
const COMMAND = /`[^`]*\s[^`]*`/;
/** Share of a rule's words that rules ranked above it may already hold before it is dropped as
 * saying nothing new. */
const REPEATED = 0.65;

/**
 * How binding a rule is (0: not a rule to carry): 3 for a binding word in capitals or a label rule
 * ("DO NOT MODIFY: …"), 2 for one in lower case ("must", "do not"), 1 for "only", "exact" and the
 * like; one more for naming what may be changed or how to hand in, one more for the command to
 * run; two less for a check or advice.
 */
export function ruleStrength(text: string): number {
  let score = SHOUTED.test(text) || LABEL_RULE.test(text) ? 3 : STRONG.test(text) ? 2 : BINDING.test(text) || USER_RULE.test(text) ? 1 : 0;
  if (!score) return 0;
  if (SUBJECT.test(text)) score++;
  if (COMMAND.test(text)) score++;
  if (ADVICE.test(text)) score -= 2;
  return Math.max(0, score);
}

/** A rule's words that say what it is about: lower case, four letters or more, a plural's "s"
 * dropped; the binding words themselves left out. */
function ruleWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}_]{4,}/gu) ?? []) {
    if (/^(?:must|never|only|cannot|exact|exactly|should|required|your|that|this|with|from|into|these|those|they|them|what|when|which|will|have|been|were|following|specific|specifically)$/.test(w)) continue;
    out.add(w.length > 4 && w.endsWith('s') ? w.slice(0, -1) : w);
  }
  return out;
}

/**
 * The rules worth carrying, in their order: as binding as `least` (a check or advice is 0), and not one whose
 * words the rules ranked above it already say (a template states "only the source files you
 * modified" three ways). Each keeps its strength as its score, which the renderer ranks by when
 * the budget holds fewer.
 */
export function bindingRules(rules: readonly SourcedLine[], least = 1): SourcedLine[] {
  const ranked = rules.map((r, i) => ({ r, i, strength: ruleStrength(r.text) })).filter((x) => x.strength >= least);
  ranked.sort((a, b) => b.strength - a.strength || a.i - b.i);
  const said = new Set<string>();
  const kept: typeof ranked = [];
  for (const x of ranked) {
    const words = ruleWords(x.r.text);
    let known = 0;
    for (const w of words) if (said.has(w)) known++;
    if (words.size && known / words.size >= REPEATED) continue;
    for (const w of words) said.add(w);
    kept.push(x);
  }
  return kept.sort((a, b) => a.i - b.i).map((x) => ({ ...x.r, sources: [...x.r.sources], score: x.strength }));
}

/** Whether a message is a task written by an agent harness (it holds tagged template sections). */
const harnessMessage = (text: string): boolean => text.includes('<') && /^\s*<(?:instructions?|rules|guidelines|important|requirements|submission)>\s*$/im.test(text);

/**
 * The standing rules of a task message, in order, each once: in a harness's template every binding
 * sentence outside its examples, format advice and environment notes (a rule that announces a list
 * or a command — "… the following files:", "… this EXACT command to submit:" — with it); in a
 * user's own message the sentences that open as an instruction. Verbatim sentences.
 */
export function extractRules(message: ChatMessage): SourcedLine[] {
  if (message.role !== 'user' && message.role !== 'system') return [];
  const harness = harnessMessage(message.content);
  const lines = unescapedBreaks(message.content).split('\n');
  const out: SourcedLine[] = [];
  const seen = new Set<string>();
  let lastLine = -2;
  const push = (text: string, line: number): void => {
    const clean = truncateAtWord(squash(text), MAX_RULE_CHARS);
    const key = clean.toLowerCase();
    // (A sentence cut out of bracketed text, "… the image] ## DO NOT RESPOND ##", is no rule.)
    if (!clean || seen.has(key) || out.length >= MAX_RULES || !balancedMarkup(clean)) return;
    seen.add(key);
    // A short rule on the line after another ("Do NOT commit your changes.") reads with it: alone
    // it says too little to stand as a line of its own.
    const prev = out[out.length - 1];
    if (prev && line - lastLine <= 1 && wordCount(clean) < SHORT_RULE && prev.text.length + clean.length < MAX_RULE_CHARS) {
      prev.text = `${prev.text} ${clean}`;
      lastLine = line;
      return;
    }
    lastLine = line;
    out.push({ text: clean, sources: [message.id], at: message.createdAt > 0 ? message.createdAt : 0, score: 1, round: 0 });
  };
  const track = tagTracker();
  let heading = '';
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (FENCE.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const tags = track(raw);
    if (tags === null) continue;
    const head = HEADING.exec(raw);
    if (head) {
      heading = head[1] ?? head[2] ?? '';
      continue;
    }
    const inTemplate = harness && tags.some((t) => t !== 'pr_description' && t !== 'task' && t !== 'issue');
    if (harness && !inTemplate) continue; // the task text itself is the goal, not a rule
    if (tags.some((t) => SKIPPED_PART.test(t)) || SKIPPED_PART.test(heading)) continue;
    const item = LIST_ITEM.exec(raw);
    const text = (item ? (item[1] ?? '') : raw).replace(/<\/?[A-Za-z][\w-]*>/g, ' ').trim();
    if (!text) continue;
    // (A user's line with no word a rule of theirs opens on, nor one in capitals, holds none: most
    // lines of a chat, not split into sentences for nothing.)
    if (!harness && !MAY_OPEN_USER_RULE.test(text) && !MAY_SHOUT.test(text)) continue;
    if (STEP.test(text)) continue;
    if (harness && LABEL_RULE.test(text) && !FORMAT.test(text)) {
      push(text, i);
      continue;
    }
    for (const sentence of splitSentences(text)) {
      const words = wordCount(sentence);
      // (The binding test first: it rules out most sentences, and the user's is anchored.)
      if (words < 3 || words > 60 || !(harness ? BINDING.test(sentence) : USER_RULE.test(sentence) || SHOUTED.test(sentence)) || advisesReader(sentence)) continue;
      if (FORMAT.test(sentence) || ENVIRONMENT.test(sentence)) continue;
      // (Nor a user's question: "Don't they care about the future of our planet?" asks, binds nothing.)
      if (!harness && /\?["'”’)\]]*$/u.test(sentence.trim())) continue;
      // A rule that announces what follows ("… the following files:", "… this command:") carries
      // it: the list's items or the command, or it says nothing whole.
      push(/:\s*$/.test(sentence) ? withWhatFollows(sentence, lines, i) : sentence, i);
    }
  }
  return out;
}

/** A lead-in rule with the list items or the one-line command after it (blank lines skipped). */
function withWhatFollows(sentence: string, lines: readonly string[], at: number): string {
  const items: string[] = [];
  let i = at + 1;
  while (i < lines.length && !(lines[i] as string).trim()) i++;
  if (FENCE.test(lines[i] ?? '')) {
    const command = (lines[i + 1] ?? '').trim();
    return command && !FENCE.test(command) && FENCE.test(lines[i + 2] ?? '') ? `${sentence} \`${command}\`` : sentence.replace(/:\s*$/, '.');
  }
  let words = 0;
  for (; i < lines.length; i++) {
    const item = LIST_ITEM.exec(lines[i] as string);
    if (!item) break;
    const text = (item[1] ?? '').trim();
    words += wordCount(text);
    // (Whole items only: the first ones, up to LIST_WORDS words.)
    if (items.length && words > LIST_WORDS) break;
    items.push(text);
  }
  return items.length ? `${sentence} ${items.join('; ')}.` : sentence.replace(/:\s*$/, '.');
}

/** The rules of the user messages among `messages` (the task a harness or the user set), in order. */
export function taskRules(messages: readonly ChatMessage[]): SourcedLine[] {
  const out: SourcedLine[] = [];
  for (const m of messages) if (m.role === 'user') out.push(...rulesOf(m));
  return out;
}

/** A message's rules, read once per message object (messages are immutable; a changed content is
 * read again): a compaction reads every removed user message, and a long chat has thousands. */
export function rulesOf(m: ChatMessage): SourcedLine[] {
  const memo = memoOf(m);
  const hit = memo.rules as SourcedLine[] | undefined;
  if (hit !== undefined) return hit.map((r) => ({ ...r, sources: [...r.sources] }));
  // (A harness's template binds with "must" and "do not"; its sentences held by a bare "only" or
  // "exact" are mostly advice. A user's own instruction counts whatever its word.)
  const rules = harnessMessage(m.content) ? bindingRules(extractRules(m), HARNESS_LEAST) : extractRules(m);
  memo.rules = rules.map((r) => ({ ...r, sources: [...r.sources] }));
  return rules;
}
