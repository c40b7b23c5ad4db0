// What an agent says while it works through tools is thinking aloud: guesses, questions, ideas it
// takes back a sentence later ("Actually, no …"), and remarks that point at the output above them
// ("This looks like a Django project."). None of it holds as a fact once the output is gone. This
// pass leaves out of an agent run's facts, sections and conclusions the statements it retracted,
// its hedges and questions, the sentences that lean on what came before them, and its restatements
// of what the issue is about.
import type { Sentence } from './extract-sentences';
import type { ChatMessage } from './messages';
import { restatesSymptom } from './agent-cause';
import { assistantProse, cued, memo, question } from './sentence-memo';

/** A sentence that takes back what was just said. */
const RETRACTION = /^(?:(?:but|and|oh|hmm|so|ok(?:ay)?),?\s+)?(?:actually\b|wait\b|no[,.!]|hmm+\b|oh[,!]|oops\b|that['’]s not (?:right|correct|it)\b|that is not (?:right|correct)\b|that['’]s wrong\b|I was wrong\b|I made a mistake\b|on second thought\b|scratch that\b|never ?mind\b|correction\b|I misread\b)/i;
/** A sentence that says an earlier one was wrong, anywhere in it ("So my double-rounding analysis
 * is wrong."). */
const WAS_WRONG = /\b(?:my (?:[\w-]+ )?(?:analysis|assumption|reasoning|theory|idea|approach|understanding)|that|this) (?:is|was) (?:wrong|incorrect|not right|mistaken)\b|\bI was wrong\b/i;
/** The agent saying its own reasoning was wrong, with what it called it ("my double-rounding
 * analysis is wrong": "double-rounding"). */
const OWN_WRONG = /\bmy ((?:[\w]+-)*[\w]+ )?(?:analysis|assumption|reasoning|theory|understanding) (?:is|was) (?:wrong|incorrect|not right|mistaken)\b/i;
/** The agent pointing at the bug ("This is the bug!", "So that's the issue: …"): the claim of its
 * analysis, in its words or the next sentence's. */
const BUG_CLAIM = /^(?:(?:so|aha|ah|now|and)[,!]?\s+)?(?:this|that|here)(?: is|['’]s) (?:the|our) (?:bug|issue|problem|root cause)\b/i;
/** Most words of a claim that only points ("This is the bug!"): what it claims is the next sentence. */
const BUG_CLAIM_WORDS = 6;
/** A sentence leaning on the one before it: an alternative or a condition on it ("Or to fix …",
 * "If so, …"), or a pointer at output ("Look at line 730: …"). */
const LEANS = /^(?:or|if so|if not|otherwise|either|look at|see)\b/i;
/** What the issue is about, said again from the task: no finding ("The issue is related to model
 * inheritance."). */
const TOPIC = /^(?:(?:so|now|ok(?:ay)?),?\s+)?the (?:issue|problem|bug|pr|task|pr description) (?:is|seems to be|appears to be) (?:about|related to|regarding|concerning)\b/i;
/** A guess or a question: not a fact. */
const HEDGE = /\?|\b(?:might|maybe|perhaps|possibly|probably|likely|may be|could be|not sure|I think|I suspect|I guess|I wonder|I['’]m wondering|I was wondering|seems? (?:like|to))\b/i;
/** The agent telling itself to think ("I need to think about this more carefully.", "Let me think
 * about this.", "Let me step back."): no task, no step, no fact. */
const DELIBERATES = /^(?:(?:actually|wait|hmm+|ok(?:ay)?|so|now|but|first)[,.!]?\s+)*(?:I (?:need|have|want|should) to|I['’]ll|I will|I must|let me|let['’]s|we (?:need|have|should) to) (?:(?:first|now|really|also) )?(?:think|rethink|reconsider|step back|pause|take a step back)\b/i;
/** The error, traceback or code comment just shown, read aloud ("The error message says there's a
 * duplicate key violation …", "The comment says …"): the Errors section says the error in its own
 * words, and the comment is gone with the output that showed it. */
const READS_ERROR = /^(?:(?:so|now|ok(?:ay)?),?\s+)?the (?:error(?: message)?|traceback|exception|comment) (?:says|indicates|shows|tells us|states|is saying|means|reads)\b/i;
/** The output just shown, quoted back ("The query shows `ORDER BY … ASC` but it should be
 * `DESC` …", "The SQL shows `…`."): the Checked line says what the run printed, the task what it
 * should print; said a third time it is a repeat. */
const READS_OUTPUT = /^(?:(?:so|now|ok(?:ay)?|but),?\s+)?the (?:(?:expected|actual|generated|resulting) )?(?:query|sql|output|result|printed \w+) (?:still )?(?:shows|is showing|prints|gives|reads|has)\s+`|\b(?:is|are)(?:n['’]t| not)? (?:in|on|among) (?:the|this|that) (?:list|output|results?)\s*[!.]*$/i;
/** Opens on a word whose referent is the output or the sentence before it. */
const POINTER = /^(?:it|its|it['’]s|this|that|that['’]s|these|those|they|they['’]re|there|such|both|which|he|she|here)\b/i;

/** An agent thinking aloud about its own progress, with nothing found in it: that it now
 * understands or sees ("Now I understand the issue better."), that it found a file or method it
 * does not say anything of ("I found the `writer.py` file."), what it needs to understand or look
 * at ("Based on the PR description, I need to understand how …"), that a test shows the issue. A
 * reader of the block learns nothing from it: no key fact. (The cause pass still reads "Now I
 * understand the issue." as announcing the sentences after it: this is no filter of sentences.) */
const THINKING =
  /^(?:(?:now|ok(?:ay)?|great|good|perfect|so|ah|aha|alright|excellent)[,!]?\s+)?(?:(?:now\s+)?I (?:now |can |finally )?(?:understand|see|get)(?: now)?(?: (?:the |what the )?(?:root cause|(?:real |actual )?(?:issue|problem|bug|cause)|full picture|whole picture|picture|current behaviou?r|code|structure|flow|logic|situation|structure better))?(?: (?:better|now|clearly|fully|more clearly|here))?|I see|I(?:['’]ve| have)? (?:found|located) (?:the |a |an )?(?:relevant |main |right )?(?:[`'"]?[\w./-]+(?:\(\))?[`'"]? )?(?:files?|methods?|functions?|class(?:es)?|modules?|code|director(?:y|ies)|definitions?|implementations?|tests?)(?: (?:in question|I need|we need|itself|that handles (?:it|this)))?(?: in [`'"]?[\w./-]+[`'"]?)?|(?:the|this|my) (?:test|script|output|reproduction)(?: script)? (?:shows|confirms|reproduces|demonstrates) the (?:issue|problem|bug)|(?:now )?I (?:can )?see (?:the |a |an )?[^.,;:]{0,80}?\b(?:class(?:es)?|methods?|functions?|files?|code|modules?|definitions?|implementations?)(?: and (?:its|the|their) [^.,;:]{0,60}?\b(?:class(?:es)?|methods?|functions?|attributes?))?|(?:the|my) (?:changes?|fix(?:es)?|edits?) (?:looks?|seems?|is|are) (?:complete|good|correct|right|fine|in place))\W*$|\bI (?:(?:need|want|have|should|will need|['’]ll need) to|should|must) (?:(?:first|now|also|better) )?(?:understand|look|check|see|find|explore|examine|investigate|figure out|study|review|dig|search|locate|read)\b/i;
/** The task said again ("The PR description mentions …", "According to the PR description, …"):
 * the goal and the task's rules carry it. */
const RESTATES_TASK = /^(?:(?:so|now|ok(?:ay)?)[,]?\s+)?(?:(?:according to|based on|looking at|from|re-?reading|going back to) the (?:pr|issue|task)(?: description| statement)?\b|the (?:(?:pr|issue|task)(?: description| statement| title)?|title) (?:(?:specifically|clearly|explicitly|also|only) )?(?:says|mentions|states|describes|asks|explains|wants|notes|shows)\b)/i;

/** A sentence that says the agent's diagnosis so far was wrong or is superseded ("Actually, I think I
 * now understand the real issue.", "Actually, that's not quite right either.", "Actually, the code
 * is correct."): what its message said before it is not carried either. */
const REDIAGNOSIS = /\bthe (?:real|actual|true) (?:issue|problem|cause|bug|root cause)\b|\bnot (?:quite )?(?:right|correct)\b|\bI was wrong\b|\b(?:code|logic|implementation|method|function) (?:is|was) (?:actually )?(?:correct|fine|right)\b/i;
/** Announces what comes next rather than saying anything ("Let me look at the full method:"):
 * a retraction after it takes back the claim before it. */
const ANNOUNCES = /:\s*$|^(?:(?:now|ok(?:ay)?|so),?\s+)?(?:let me|let['’]s|I['’]ll|I will)\b/i;

// (The patterns tried anywhere in a sentence only where their words are: sentence-memo.ts cued.)
const wasWrong = cued(WAS_WRONG, ['wrong', 'incorrect', 'right', 'mistaken']);
const rediagnoses = cued(REDIAGNOSIS, ['real', 'actual', 'true', 'right', 'correct', 'wrong', 'fine']);
const hedges = cued(HEDGE, ['might', 'maybe', 'perhaps', 'possibly', 'probably', 'likely', 'may', 'could', 'sure', 'think', 'suspect', 'guess', 'wonder', 'wondering', 'seem', 'seems'], '?');
const RETRACTS = question((s) => RETRACTION.test(s.text) || wasWrong(s), assistantProse);
const REDIAGNOSES = question(rediagnoses, assistantProse);
const HEDGES_OR_POINTS = question((s) => hedges(s) || POINTER.test(s.text) || LEANS.test(s.text) || TOPIC.test(s.text) || RESTATES_TASK.test(s.text) || READS_ERROR.test(s.text) || READS_OUTPUT.test(s.text) || DELIBERATES.test(s.text), assistantProse);
/** The agent on its own scaffolding, not the code at hand: its test or script getting complex,
 * needing setup, having a bug, the shell quoting ("The test setup is getting complex.", "My test
 * script had a bug.", "The tests need a configured settings module."), or the bug being elsewhere;
 * nor its report of having reproduced the issue ("I've successfully reproduced the issue."): the
 * State's Checked line says what the run showed. */
const SCAFFOLDING =
  /^(?:(?:so|ok(?:ay)?|i see|ah|hmm|but)[,!]?\s+)?(?:(?:the|my|this|our) (?:(?:test|reproduction|repro|fix|patch)(?: script| setup| file)?s?|scripts?|shell|output|setup|environment) (?:is getting|are getting|gets|had|has|have|needs?|is not|isn['’]t|are not|aren['’]t|is interpreting|did(?:n['’]t| not)|does(?:n['’]t| not)|failed|fails)\b|the (?:issue|problem|bug) (?:must|has to) be (?:somewhere else|elsewhere)\b|unless\b|(?:I|we)(?:['’]ve| have)? (?:now |successfully |just )*(?:reproduced|confirmed) (?:the|this) (?:issue|problem|bug|error)[.!]?$)/i;
const thinking = cued(THINKING, ['need', 'want', 'have', 'should', 'will', 'must']);
const THINKS_ALOUD = question((s) => thinking(s) || SCAFFOLDING.test(s.text), assistantProse);
const ANNOUNCES_NEXT = question((s) => ANNOUNCES.test(s.text), assistantProse);

/** Whether an agent's sentence only thinks aloud about its progress (see THINKING): no fact. */
export function thinksAloud(s: Sentence): boolean {
  return s.role === 'assistant' && !s.code && memo(s, THINKS_ALOUD);
}

/** Whether the removed part is an agent run: an assistant message in it calls a tool. */
export function isAgentRun(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0);
}

/**
 * The sentences without an agent's retracted statements (the retraction itself and the claim
 * before it — not a line announcing a step in between: "… the `max()` call is wrong. Let me look at
 * the method:" then "Actually, the code is correct."), its hedges and questions, and its
 * sentences that open on a pointer, and its telling itself to think ("I need to think about this
 * more carefully."). A retraction that says the diagnosis was wrong ("Actually, I
 * now see the real issue.") takes back its message's sentences before it too. Other roles'
 * sentences and code pass unchanged; order is kept.
 */
export function withoutRefuted(sentences: readonly Sentence[]): Sentence[] {
  const drop = new Set<Sentence>();
  let previous: Sentence | null = null;
  sentences.forEach((s, i) => {
    if (s.role !== 'assistant' || s.code) return;
    if (memo(s, RETRACTS)) {
      drop.add(s);
      if (previous) drop.add(previous);
      if (memo(s, REDIAGNOSES)) for (let j = i - 1; j >= 0 && (sentences[j] as Sentence).message === s.message; j--) if (!(sentences[j] as Sentence).code) drop.add(sentences[j] as Sentence);
      // ("So my double-rounding analysis is wrong.": every sentence of its message before it that
      // reasoned so — "so the discount applies twice (double rounding)" — is taken back, however far back;
      // "my analysis is wrong" takes back all of them.)
      const own = OWN_WRONG.exec(s.text);
      if (own) {
        // (And its latest claim of the bug in an earlier message — "This is the bug! When we
        // recursively process …, we should preserve the direction" — the analysis it now calls
        // wrong, however it named it: a reader found the claim carried as a fact.)
        for (let j = i - 1; j >= 0; j--) {
          const t = sentences[j] as Sentence;
          if (t.message === s.message || t.role !== 'assistant' || t.code || !BUG_CLAIM.test(t.text)) continue;
          drop.add(t);
          const next = sentences[j + 1];
          if (t.wc <= BUG_CLAIM_WORDS && next && next.message === t.message && !next.code) drop.add(next);
          break;
        }
        const mark = own[1] && !/^(?:previous|initial|earlier|original|first|whole|entire|above|own|last) $/i.test(own[1]) ? new RegExp(`\\b${own[1].trim().replace(/[-\s]+/g, '[-\\s]+')}\\b`, 'i') : null;
        for (let j = i - 1; j >= 0 && (sentences[j] as Sentence).message === s.message; j--) {
          const t = sentences[j] as Sentence;
          if (!t.code && (!mark || mark.test(t.text))) drop.add(t);
        }
      }
    } else if (memo(s, HEDGES_OR_POINTS)) drop.add(s);
    if (!memo(s, ANNOUNCES_NEXT)) previous = s;
  });
  return drop.size ? sentences.filter((s) => !drop.has(s)) : [...sentences];
}

/** The sentences without the agent's restatements of the symptom the task reported ("The issue is
 * that … should become invalid but currently don't", agent-cause.ts restatesSymptom): the goal
 * carries it, and a reader takes it for a finding. `task`: the task's own words. */
export function withoutSymptoms(sentences: readonly Sentence[], task: string): Sentence[] {
  if (!task) return [...sentences];
  return sentences.filter((s) => s.role !== 'assistant' || s.code || s.template || !restatesSymptom(s.text, task));
}

/** An interjection opening an agent's finding ("Great! ", "Good, so ", "Interesting! "). */
const INTERJECTION = /^(?:good|great|perfect|interesting|excellent|ah|aha|oh|ok(?:ay)?|alright|nice|hmm+)\s*[,!.]+\s*(?:so,?\s+)?/i;
/** Narration around a finding: how the agent came to see it ("Looking at the code, I can see that
 * …", "Line 505 shows that …", "Notice that …"), not what it found. */
const NARRATED =
  /^(?:(?:now|so),?\s+)?(?:looking (?:back |again |closer |more closely )?(?:at|through) [^,]{1,60},\s*(?:(?:now\s+)?I (?:can )?(?:now )?(?:see|notice) (?:that\s+)?)?|(?:now\s+)?I (?:can )?(?:now )?(?:see|notice|noticed) (?:that\s+|(?=(?:it|there)\b|`))|notice that\s+|note that\s+|as (?:we|you) can see(?: from [^,]{1,60})?,\s*|lines? \d+(?:\s*[-–]\s*\d+)? shows? that\s+|the (?:output|result|results|test|traceback) (?:shows?|confirms?) that\s+)/i;

/**
 * An agent's finding without its narration: the interjection and the "Looking at the code, I can
 * see that" before what it found ("Looking at the code, I can see that `_check_constraints` only
 * checks database compatibility." → "`_check_constraints` only checks database compatibility.").
 * Readers of an agent run's key facts want what the code does, not how the agent came to see it.
 * "It" opening what is left is the code the narration named ("Looking at the `f` function, I see
 * that it skips …" → "`f` skips …"); another pointer leaves the text whole, the narration naming
 * its referent.
 */
export function findingOf(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) {
    const next = out.replace(INTERJECTION, '').replace(NARRATED, '');
    if (next === out) break;
    out = next;
  }
  // ("Looking at the `create_rows` function, I see that it skips …": what it names is what "it" is.)
  // (Else the thing it names: "Looking at the migration code, it's trying …" → "The migration code
  // is trying …".)
  const looked = /^(?:(?:now|so),?\s+)?looking (?:back |again |closer |more closely )?(?:at|through) [^,`]{0,40}(`[^`]+`)[^,`]{0,30},/i.exec(text)?.[1] ?? /^(?:(?:now|so),?\s+)?looking (?:back |again |closer |more closely )?(?:at|through) (the [\w.-]+(?: [\w.-]+){0,4}),/i.exec(text)?.[1];
  const named = looked?.startsWith('the ') ? `The${looked.slice(3)}` : looked;
  if (named && out !== text && /^it(?:['’]s)?\s/i.test(out)) out = out.replace(/^it(['’]s)?\s/i, (_, is: string | undefined) => (is ? `${named} is ` : `${named} `));
  // ("When `x` is used (line 278), it sets …": the "it" after the clause is what it named too;
  // with no name for it, the narration stays.)
  else if (out !== text && /,\s+it(?:['’]s)?\s/i.test(out)) {
    if (!named) return text;
    const name = named.startsWith('The') ? `the${named.slice(3)}` : named;
    out = out.replace(/,\s+it(['’]s)?\s/i, (_, is: string | undefined) => (is ? `, ${name} is ` : `, ${name} `));
  }
  // ("There is …" says that something exists: no pointer.)
  const exists = /^there(?:['’]s| is| are| was| were)\b/i.test(out);
  if (out === text || out.length < 12 || (POINTER.test(out) && !exists) || LEANS.test(out)) return text;
  // (A plain word opening what is left starts the sentence; a code name keeps its case.)
  return /^[a-z][a-z]*\b(?![_(.])/.test(out) ? out.charAt(0).toUpperCase() + out.slice(1) : out;
}
