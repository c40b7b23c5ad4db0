// The block while it is written (render.ts): its lines by section, the tokens they cost by the
// per-line estimate, and what is shown so far — no line is said twice, by two sections or as a key
// fact after a section. `add` takes a line when it fits under a cap; `fillList` and `fillInline`
// take a section's items, from where the last fill of that section stopped.
import type { CompactionRecord } from './record';
import { HEADINGS, type SectionId, bareOf, needsHeading } from './block-format';
import { largestFitting } from './render-extras';
import { dedupeKey, dropLoneSurrogates } from './text';

/** The texts of the lines the user rewrote (src/core/edits.ts marks them). */
export function editedTextsOf(record: CompactionRecord): Set<string> {
  const edited = new Set<string>();
  for (const l of [record.goal, record.request, record.leftOff, record.nextStep, ...record.constraints, ...record.decisions, ...record.done, ...record.openTasks, ...record.errors, ...record.topics]) {
    if (l?.edited) edited.add(l.text);
  }
  return edited;
}

export class BlockDraft {
  readonly lines = new Map<SectionId, string[]>();
  /** Tokens the lines cost, each estimated alone (with its newline and heading). */
  used = 0;
  /** What a section already shows is not repeated as a key fact, nor the other way round. */
  readonly shown = new Set<string>();
  /** The goal as shown: a line it holds is not repeated by another section — but only what the
   * block shows of the goal counts, or a constraint stated after the cut would vanish with it. */
  goalText = '';
  /** The other task lines as shown (latest request, left off), lower case: a section line they
   * hold is not repeated either. */
  tasksLower = '';
  /** How many of each section's items the fills have taken. */
  private readonly taken = new Map<SectionId, number>();

  /** `target`: the tokens the lines may cost; `edited`: the texts of lines the user rewrote (past
   * the section shares, like the task lines' sentence limit, as long as the whole block fits). */
  constructor(
    readonly target: number,
    readonly cost: (s: string) => number,
    readonly edited: ReadonlySet<string>,
  ) {}

  /** Adds a line to section `id` if the lines then cost at most `cap`; true when it was added or
   * is shown already (nothing to add), false when it did not fit. */
  add(id: SectionId, line: string, cap: number): boolean {
    const clean = dropLoneSurrogates(line);
    // The line's own words: without its bullet and a short label ("Latest request:", "Open:"), so
    // one request is not repeated as the latest request, an open task and a request.
    // Both with and without it: the "label" may be the speaker's own words ("Keep in mind: …"),
    // which a key fact then repeats whole.
    const whole = line.replace(/^- /, '');
    const bare = bareOf(line);
    const key = dedupeKey(bare);
    // (The State section says what each line says about the work even when "Left off" shows the
    // same command: it is the list of what was changed.)
    // (But a sentence under a State line — what the agent said of the code it looked at — is not
    // said twice: a key fact may have said it first.)
    const stateSentence = id === 'state' && /^ {2}- .*[.!]$/.test(line);
    if (id !== 'goal' && id !== 'leftOff' && (id !== 'state' || stateSentence) && (this.shown.has(key) || (this.goalText !== '' && this.goalText.includes(bare)))) return true;
    // Nor what the latest request or "Left off" already says ("Done: the fence line is in [[…]]. Do
    // you want …?").
    if (id !== 'request' && id !== 'leftOff' && id !== 'nextStep' && id !== 'state' && this.tasksLower !== '' && bare.length >= 20 && this.tasksLower.includes(bare.toLowerCase())) return true;
    // A line the user rewrote is what they asked to send: only the whole budget bounds it.
    if (this.edited.has(bare)) cap = Math.max(cap, this.target);
    const list = this.lines.get(id);
    const heading = !list && needsHeading(id) ? this.cost(HEADINGS[id]) + 1 : 0;
    const c = this.cost(clean) + 1 + heading;
    if (this.used + c > cap) return false;
    this.used += c;
    this.shown.add(key);
    if (bare !== whole) this.shown.add(dedupeKey(whole));
    if (list) list.push(clean);
    else this.lines.set(id, [clean]);
    return true;
  }

  /** Takes a list section's next items, one line each, while they fit under `capFor()`. */
  fillList(id: SectionId, items: readonly string[], capFor: () => number): void {
    let i = this.taken.get(id) ?? 0;
    const cap = capFor();
    while (i < items.length && this.add(id, items[i] as string, cap)) i++;
    this.taken.set(id, i);
  }

  /** Grows an inline section (files, references: one line, `format` of its items) to the most
   * items that fit under `cap`. */
  fillInline(id: SectionId, items: string[], format: (xs: string[]) => string, cap: number): void {
    const current = this.lines.get(id)?.[0];
    const before = current ? this.cost(current) + 1 : 0;
    let n = this.taken.get(id) ?? 0;
    let best = current ?? '';
    let bestCost = before;
    // The line with m items, measured, if it fits (else null).
    const tryItems = (m: number): { line: string; c: number } | null => {
      const line = dropLoneSurrogates(format(items.slice(0, m)));
      const c = this.cost(line) + 1;
      return this.used - before + c > cap ? null : { line, c };
    };
    // The most items that fit. A line with one more item is the same line with ", item" appended,
    // and appending never lowers the estimate (a property the token tests check), so the counts
    // that fit are a prefix.
    const most = largestFitting(n, items.length, tryItems);
    if (most.fit) {
      best = most.fit.line;
      bestCost = most.fit.c;
    }
    n = most.n;
    if (best && best !== current) {
      this.used += bestCost - before;
      this.lines.set(id, [best]);
    }
    this.taken.set(id, n);
  }

  /** Takes a section's lines out again (what `add` counted for each: no heading here). */
  remove(id: SectionId): void {
    for (const l of this.lines.get(id) ?? []) this.used -= this.cost(l) + 1;
    this.lines.delete(id);
  }
}
