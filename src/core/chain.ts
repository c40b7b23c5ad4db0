// Chaining: merging the previous round's record with what this round extracted. The original goal
// and standing constraints survive every round; open tasks that are now done move to done;
// nothing is duplicated; lists are bounded so the record (and the block) cannot grow without end.
import { mergeSamePaths, referencesNotListed, samePath } from './extract-files';
import { closeTasks, errorKey } from './extract-summary';
import { mergeState } from './state-merge';
import type { CompactionRecord, ErrorLine, FileEntry, Reference, SourcedLine } from './record';
import { dedupeKey } from './text';
import { mergeThreads } from './threads';

/** Caps per list: old enough entries beyond these add nothing a bounded block could show. */
const LIMITS = { constraints: 40, decisions: 40, done: 60, open: 40, errors: 60, topics: 40, references: 200, files: 300 };

/** Union by normalised text, earlier entries first; a repeat adds its sources to the first. */
export function mergeLines<T extends SourcedLine>(earlier: readonly T[], later: readonly T[], limit: number, keep: 'first' | 'last', keyOf: (text: string) => string = dedupeKey): T[] {
  const out: T[] = [];
  const byKey = new Map<string, T>();
  for (const item of [...earlier, ...later]) {
    const key = keyOf(item.text);
    const existing = byKey.get(key);
    if (existing) {
      for (const id of item.sources) if (!existing.sources.includes(id)) existing.sources.push(id);
      continue;
    }
    const copy = { ...item, sources: [...item.sources] };
    byKey.set(key, copy);
    out.push(copy);
  }
  return keep === 'first' ? out.slice(0, limit) : out.slice(Math.max(0, out.length - limit));
}

function mergeErrors(earlier: readonly ErrorLine[], later: readonly ErrorLine[]): ErrorLine[] {
  const merged = mergeLines(earlier, later, Number.MAX_SAFE_INTEGER, 'first', errorKey);
  // A resolution seen later completes an earlier error; one met again unresolved stands again.
  for (const e of merged) {
    const again = later.find((l) => errorKey(l.text) === errorKey(e.text));
    if (!again) continue;
    if (!e.frame && again.frame) e.frame = again.frame;
    if (again.resolution) {
      e.resolution = again.resolution;
      delete e.unresolved;
    } else if (again.unresolved && !e.resolution) e.unresolved = true;
  }
  return merged.slice(Math.max(0, merged.length - LIMITS.errors));
}

/** Positions of a later round rank above every earlier one. */
const ROUND_STRIDE = 1e7;

function mergeFiles(earlier: readonly FileEntry[], later: readonly FileEntry[], round: number): FileEntry[] {
  const byPath = new Map<string, FileEntry>();
  for (const f of earlier) byPath.set(f.path, { ...f, sources: [...f.sources] });
  for (const f of later) {
    const existing = byPath.get(f.path);
    const last = round * ROUND_STRIDE + f.last;
    if (existing) {
      existing.last = Math.max(existing.last, last);
      for (const id of f.sources) if (!existing.sources.includes(id)) existing.sources.push(id);
      if (!f.searched) delete existing.searched;
    } else byPath.set(f.path, { ...f, sources: [...f.sources], last });
  }
  return mergeSamePaths([...byPath.values()])
    .sort((a, b) => b.last - a.last || (a.path < b.path ? -1 : 1))
    .slice(0, LIMITS.files);
}

function mergeReferences(earlier: readonly Reference[], later: readonly Reference[], round: number): Reference[] {
  const byKey = new Map<string, Reference>();
  for (const r of earlier) byKey.set(r.key, { ...r, sources: [...r.sources] });
  for (const r of later) {
    const existing = byKey.get(r.key);
    const last = round * ROUND_STRIDE + r.last;
    if (existing) {
      existing.count += r.count;
      existing.last = Math.max(existing.last, last);
      for (const id of r.sources) if (!existing.sources.includes(id)) existing.sources.push(id);
      if (r.text.length > existing.text.length && r.kind === existing.kind) existing.text = r.text;
    } else byKey.set(r.key, { ...r, sources: [...r.sources], last });
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || b.last - a.last || (a.text < b.text ? -1 : 1)).slice(0, LIMITS.references);
}

export type ExtractedContent = Pick<
  CompactionRecord,
  'goal' | 'request' | 'nextStep' | 'constraints' | 'decisions' | 'done' | 'openTasks' | 'errors' | 'leftOff' | 'facts' | 'topics' | 'references' | 'filesRead' | 'filesModified' | 'kind' | 'threads' | 'state' | 'speakers'
>;

/**
 * Merges the previous record's content with this round's. `fresh.facts` must already have been
 * ranked together with the previous pool (see selectFacts' `carried`), so it replaces it.
 */
export function mergeContent(previous: CompactionRecord | null, fresh: ExtractedContent, round: number): ExtractedContent {
  if (!previous) return fresh;
  const done = mergeLines(previous.done, fresh.done, Number.MAX_SAFE_INTEGER, 'first');
  const allOpen = mergeLines(previous.openTasks, fresh.openTasks, Number.MAX_SAFE_INTEGER, 'first');
  const stillOpen = closeTasks(allOpen, done);
  // Tasks closed by later work move to done, where the panel shows them as finished.
  const closed = allOpen.filter((t) => !stillOpen.includes(t));
  const doneWithClosed = mergeLines(closed, done, Number.MAX_SAFE_INTEGER, 'first');
  const modified = mergeFiles(previous.filesModified, fresh.filesModified, round);
  const filesRead = mergeFiles(previous.filesRead, fresh.filesRead, round).filter((f) => !modified.some((x) => samePath(x.path, f.path)));
  return {
    // The original goal is the first round's, always.
    goal: previous.goal ?? fresh.goal,
    // The latest request and where things stand are the newest round's, when it has them.
    request: fresh.request ?? previous.request ?? null,
    // (A step announced before later work is stale: this round's tool calls came after it.)
    nextStep: fresh.leftOff || fresh.state?.lastAction ? (fresh.nextStep ?? null) : (previous.nextStep ?? null),
    constraints: mergeLines(previous.constraints, fresh.constraints, LIMITS.constraints, 'first'),
    decisions: mergeLines(previous.decisions, fresh.decisions, LIMITS.decisions, 'last'),
    done: doneWithClosed.slice(Math.max(0, doneWithClosed.length - LIMITS.done)),
    openTasks: stillOpen.slice(Math.max(0, stillOpen.length - LIMITS.open)),
    errors: mergeErrors(previous.errors, fresh.errors),
    leftOff: fresh.leftOff ?? previous.leftOff,
    facts: fresh.facts,
    topics: mergeLines(previous.topics, fresh.topics, LIMITS.topics, 'last'),
    references: referencesNotListed(mergeReferences(previous.references, fresh.references, round), [...modified, ...filesRead]),
    filesRead,
    filesModified: modified,
    // An agent's run stays work when a later round removes only talk; otherwise the latest reading.
    kind: previous.kind === 'work' ? 'work' : (fresh.kind ?? previous.kind),
    threads: mergeThreads(previous.threads ?? [], fresh.threads ?? []),
    // A name found once stays; a later round's reading of a side wins.
    ...(previous.speakers || fresh.speakers ? { speakers: { ...previous.speakers, ...fresh.speakers } } : {}),
    // Where the work stands: this round's changes on the earlier ones, its latest check and cause.
    ...(previous.state || fresh.state ? { state: fresh.state ? mergeState(previous.state, fresh.state) : previous.state } : {}),
  };
}
