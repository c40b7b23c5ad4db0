// Pieces of rendering that renderBlock (render.ts) calls on its lines as they stand: the lines added
// under others only while room is left (how an error was resolved, what the left-off command's
// output showed), the search for the most items an inline section can hold, the order of files and
// references, and the last trim of the block measured whole. Pure: the appenders take the block's
// lines by section and the tokens used, and return the tokens used after.
import type { ErrorLine, FileEntry, Reference } from './record';
import { blockMargin, shareFor } from './block-margin';
import type { TokenizerFamily } from './tokenizer-family';
import { assemble, HEADINGS, OUTCOME_MARK, outputLine, RAN_PREFIX, resolutionLine, type SectionId } from './block-format';
import { dropLoneSurrogates, isLeadIn, squash } from './text';
import { RESOLVED_BY_INSTALL, errorText } from './error-fate';

type Lines = Map<SectionId, string[]>;
type Cost = (s: string) => number;

/**
 * How the errors shown were resolved, each on a line of its own under its error ("  - Then: …"), so
 * both stay whole sentences (or lines) of the source, while the block has room. A fix is said once
 * (the first error it fixed), and not when "Left off" already says it (`leftOffText`, lower case, or
 * the command it ran).
 */
export function addResolutions(lines: Lines, errors: readonly ErrorLine[], leftOffText: string, used: number, target: number, cost: Cost): number {
  const errorLines = lines.get('errors');
  if (!errorLines) return used;
  // (An error line is written with or without its frame: either names it.)
  const byLine = new Map(errors.flatMap((e) => [[dropLoneSurrogates(`- ${errorText(e)}`), e] as const, [dropLoneSurrogates(`- ${errorText(e, false)}`), e] as const]));
  // (The command without the outcome the line may show after it.)
  const ranLeftOff = lines.get('leftOff')?.find((l) => l.startsWith(RAN_PREFIX))?.slice(RAN_PREFIX.length).split(OUTCOME_MARK)[0]?.toLowerCase();
  const said = new Set<string>([leftOffText, ...(ranLeftOff ? [ranLeftOff] : [])]);
  for (let i = 0; i < errorLines.length; i++) {
    const e = byLine.get(errorLines[i] as string);
    // (Nor an install its line says already.)
    if (!e?.resolution || said.has(e.resolution.toLowerCase()) || (errorLines[i] as string).startsWith(`- ${RESOLVED_BY_INSTALL}`)) continue;
    said.add(e.resolution.toLowerCase());
    const line = resolutionLine(e.resolution);
    const extra = cost(line) + 1;
    if (used + extra > target) continue;
    used += extra;
    errorLines.splice(++i, 0, line);
  }
  return used;
}

/**
 * What the left-off command's output showed of the task (`output`, extract-goal.ts's choice), as a
 * fenced block under its "- Ran:" line, as many of the lines as fit with both fences; none when the
 * command is not shown.
 */
export function addCommandOutput(lines: Lines, output: readonly string[], used: number, target: number, cost: Cost): number {
  const leftOffLines = lines.get('leftOff');
  const ranAt = leftOffLines?.findIndex((l) => l.startsWith(RAN_PREFIX)) ?? -1;
  // (Not a line the Ran line already gives as its outcome: "printed: X" then X again in the fence.)
  const ran = ranAt >= 0 ? (leftOffLines?.[ranAt] ?? '') : '';
  const shownable = ranAt >= 0 ? output.filter((l) => !l.includes('```') && !ran.includes(squash(l))) : [];
  if (!leftOffLines || !shownable.length) return used;
  const fence = '  ```';
  const shown: string[] = [];
  let extra = 2 * (cost(fence) + 1);
  for (const out of shownable) {
    const line = outputLine(out);
    if (used + extra + cost(line) + 1 > target) break;
    extra += cost(line) + 1;
    shown.push(line);
  }
  if (!shown.length) return used;
  leftOffLines.splice(ranAt + 1, 0, fence, ...shown, fence);
  return used + extra;
}

/**
 * The largest n in [from, max] for which `tryN(n)` fits (is not null), given that the n that fit
 * are a prefix, and its fit (null when no n past `from` fits): found by galloping then halving, in
 * a few tries rather than one per n (a long file list would cost items × line length).
 */
export function largestFitting<T>(from: number, max: number, tryN: (n: number) => T | null): { n: number; fit: T | null } {
  let lo = from;
  let hi = max + 1;
  let fit: T | null = null;
  for (let step = 1; lo + step <= max; step *= 2) {
    const f = tryN(lo + step);
    if (!f) {
      hi = lo + step;
      break;
    }
    lo += step;
    fit = f;
  }
  hi = Math.min(hi, max + 1);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const f = tryN(mid);
    if (f) {
      lo = mid;
      fit = f;
    } else hi = mid;
  }
  return { n: lo, fit };
}

/** Files, most recently touched first: that is where the work is. */
export function orderFiles(files: readonly FileEntry[]): string[] {
  return [...files].sort((a, b) => b.last - a.last || (a.path < b.path ? -1 : 1)).map((f) => f.path);
}

/** References, most cited first, then most recent. */
export function orderRefs(refs: readonly Reference[]): string[] {
  return [...refs].sort((a, b) => b.count - a.count || b.last - a.last || (a.text < b.text ? -1 : 1)).map((r) => r.text);
}

/** The State's heading saying where an edited run stands (`status`, state-format.ts), put first
 * among its lines for `assemble` to show as the heading, when the State is shown and the longer
 * heading fits; returns the room used. */
export function addStateStatus(lines: Lines, status: string | null, used: number, target: number, cost: Cost): number {
  const state = lines.get('state');
  if (!status || !state?.length) return used;
  const extra = Math.max(0, cost(status) - cost(HEADINGS.state));
  if (used + extra > target) return used;
  state.unshift(status);
  return used + extra;
}

const FENCE = /^\s*```/;

/**
 * The block of these lines, measured whole and trimmed until it fits the budget less the margin
 * (`strict`, a tokenizer family: less the larger of `margin` and the one its own lines need by
 * that family's figures, block-margin.ts): the
 * last line of the least needed section goes first (key facts, then the lists, the task lines
 * last). A fenced block goes whole, and a line left announcing what was dropped after it ("Left
 * off: Let me run the tests:") goes too.
 */
export function trimToFit(lines: Map<SectionId, string[]>, budget: number, margin: number, cost: Cost, strict?: TokenizerFamily): string {
  const dropOrder: SectionId[] = ['facts', 'topics', 'references', 'done', 'decisions', 'searched', 'read', 'open', 'modified', 'errors', 'state', 'constraints', 'nextStep', 'request', 'leftOff', 'goal'];
  let block = assemble(lines);
  while (block && cost(block) > Math.floor(budget * (1 - (strict ? Math.max(margin, shareFor(blockMargin(block, cost, strict), budget, strict)) : margin)))) {
    const id = dropOrder.find((s) => lines.get(s)?.length);
    if (!id) return '';
    const section = lines.get(id) as string[];
    // A closing fence takes its block with it, up to and with the opening one.
    if (FENCE.test(section.pop() as string)) {
      let line: string | undefined;
      do line = section.pop();
      while (line !== undefined && !FENCE.test(line));
    }
    if (section.length && isLeadIn(section[section.length - 1] as string)) section.pop();
    block = assemble(lines);
  }
  return block;
}
