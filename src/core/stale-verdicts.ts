// An agent's verdict on its own fix ("The fix is working correctly.", "The fix has been applied.")
// holds only for the fix it looked at then. When a source file was edited after it, a later check
// failed, or the agent said afterwards that something is still wrong, the verdict is overturned: a
// reader took a "Done: The fix is working correctly." kept from before the agent found it was not
// for where the work stands. The State's Changed and Checked lines say that. Pure.
import type { Sentence } from './extract-sentences';
import type { ChatMessage } from './messages';
import type { SourcedLine, TaskState } from './record';

/** A verdict on the fix or the work: it works, passes, is applied, is done. */
const VERDICT = /\b(?:fix|fixes|change|changes|patch|implementation|solution|tests?|it|everything)\b(?: (?:is|are|has been|have been|was|were|now|seems? to be|appears? to be|all))* (?:now |all |correctly |successfully )*(?:works?|working|passe[sd]|passing|applied|done|complete|in place|correct|resolved)\b/i;
/** The agent saying afterwards that something is still wrong ("But my test is still showing
 * numbers.", "The fix doesn't work.", "It still fails."). */
const STILL_WRONG = /\bstill (?:fail(?:s|ing)?|broken|wrong|show(?:s|ing)|return(?:s|ing)|get(?:s|ting)|produc(?:es|ing)|not (?:work|fix|pass)\w*)\b|\b(?:does(?:n['’]t| not)|did(?:n['’]t| not)|is(?:n['’]t| not)) (?:actually |really |quite )?(?:work(?:ing)?|fix(?:ed)?|pass(?:ing)?|resolved?|correct)\b|\bnot (?:actually |quite )?(?:working|fixed|resolved)\b/i;

/** Whether a text is the agent's verdict on its fix. */
export const isVerdict = (text: string): boolean => VERDICT.test(text) && !STILL_WRONG.test(text);

/**
 * The index among `removed` after which a verdict said before it no longer holds: the latest of
 * the last source edit (`lastEdit`), a last check that failed (not one that only printed), and the agent's last sentence saying
 * something is still wrong; -1 when none.
 */
export function overturnedBefore(removed: readonly ChatMessage[], sentences: readonly Sentence[], lastEdit: number, state: TaskState | null): number {
  let at = lastEdit;
  const checked = state?.checked;
  if (checked && !checked.passed && checked.outcome.startsWith('failed')) at = Math.max(at, removed.findIndex((m) => m.id === checked.sources[0]));
  for (let i = sentences.length - 1; i >= 0; i--) {
    const s = sentences[i] as Sentence;
    if (s.message <= at) break;
    if (s.role === 'assistant' && !s.code && STILL_WRONG.test(s.text)) {
      at = s.message;
      break;
    }
  }
  return at;
}

/** The done lines without the verdicts said before `before` (an index among `removed`). */
export function withoutStaleVerdicts(done: readonly SourcedLine[], removed: readonly ChatMessage[], before: number): SourcedLine[] {
  if (before < 0) return [...done];
  return done.filter((d) => !isVerdict(d.text) || removed.findIndex((m) => m.id === d.sources[d.sources.length - 1]) >= before);
}
