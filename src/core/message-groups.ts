// A conversation's sentences grouped by message without copying them up front: the task lines
// (extract-goal.ts) read the first few and the last few groups of a thousand. Pure.
import type { Sentence } from './extract-sentences';

/** The removed messages' sentences grouped by message, in order: each group sliced only when it
 * is read (the task lines read the first few and the last few of a thousand). */
export class MessageGroups {
  readonly length: number;
  private readonly starts: number[] = [];
  private readonly made: (Sentence[] | undefined)[];

  constructor(private readonly flat: readonly Sentence[]) {
    let last = -1;
    for (let i = 0; i < flat.length; i++) {
      const m = (flat[i] as Sentence).message;
      if (m !== last) {
        this.starts.push(i);
        last = m;
      }
    }
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
