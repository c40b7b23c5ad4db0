// A conversation's sentences grouped by message without copying them up front: the task lines
// (extract-goal.ts) read the first few and the last few groups of a thousand. Pure.
import type { Sentence } from './extract-sentences';

/** The removed messages' sentences grouped by message, in order: each group sliced only when it
 * is read (the task lines read the first few and the last few of a thousand). */
export class MessageGroups {
  readonly length: number;
  private readonly starts: number[] = [];
  private readonly made: (Sentence[] | undefined)[];
  private readonly flat: readonly Sentence[];

  /** `sentences` (of the messages in order) grouped by message; with `keep`, only the sentences
   * it keeps — filtered in the same pass that finds the groups. */
  constructor(sentences: readonly Sentence[], keep?: (s: Sentence) => boolean) {
    const flat: Sentence[] = keep ? [] : (sentences as Sentence[]);
    let last = -1;
    for (let i = 0; i < sentences.length; i++) {
      const s = sentences[i] as Sentence;
      if (keep && !keep(s)) continue;
      const m = s.message;
      if (m !== last) {
        this.starts.push(keep ? flat.length : i);
        last = m;
      }
      if (keep) flat.push(s);
    }
    this.flat = flat;
    this.length = this.starts.length;
    this.starts.push(flat.length);
    this.made = new Array<Sentence[] | undefined>(this.length);
  }

  /** Group `g` (undefined past either end). */
  at(g: number): Sentence[] | undefined {
    if (g < 0 || g >= this.length) return undefined;
    return (this.made[g] ??= this.flat.slice(this.starts[g], this.starts[g + 1]));
  }

  /** The first sentence of group `g`, without slicing it. */
  first(g: number): Sentence {
    return this.flat[this.starts[g] as number] as Sentence;
  }
}
