// The State carried over the rounds of a chain: this round's state merged into the earlier one,
// the newest round winning (a file keeps its place, its latest edit wins; the latest check, cause
// and action), and the bounds of the lists it carries. chain.ts calls mergeState. Pure.
import { samePath } from './extract-files';
import type { ChangedFile, TaskState } from './record';

/** Most earlier edits of one file a state keeps beside its latest. */
export const MAX_EARLIER = 2;
/** Bounds of the lists a chain carries. */
export const LIMITS = { changed: 12, scratch: 24, notesRead: 24, searches: 6, notes: 8, looked: 8, editScripts: 8, found: 2 };

/** The state carried forward: this round's changes merged into the earlier ones (a file keeps its
 * place, its latest edit wins), the latest check, cause and action when this round has them. */
export function mergeState(earlier: TaskState | null | undefined, fresh: TaskState): TaskState {
  if (!earlier) return fresh;
  const changed: ChangedFile[] = earlier.changed.map((c) => ({ ...c, sources: [...c.sources], ...(c.earlier ? { earlier: [...c.earlier] } : {}) }));
  for (const c of fresh.changed) {
    const at = changed.findIndex((x) => samePath(x.path, c.path));
    if (at < 0) changed.push({ ...c, sources: [...c.sources], ...(c.earlier ? { earlier: [...c.earlier] } : {}) });
    else {
      const into = changed[at] as ChangedFile;
      if (c.restored) into.restored = true;
      else {
        if (c.how && c.how !== into.how) {
          const before = [...(into.earlier ?? []), ...(into.how ? [into.how] : []), ...(c.earlier ?? [])].filter((h) => h !== c.how);
          into.earlier = before.slice(-MAX_EARLIER);
          into.how = c.how;
        }
        into.edits = (into.edits ?? 1) + (c.edits ?? 1);
        delete into.restored;
      }
      for (const id of c.sources) if (!into.sources.includes(id)) into.sources.push(id);
    }
  }
  const union = (a: readonly string[], b: readonly string[], limit: number): string[] => {
    const out = [...a];
    for (const x of b) if (!out.some((y) => samePath(y, x))) out.push(x);
    return out.slice(Math.max(0, out.length - limit));
  };
  return {
    changed: changed.slice(Math.max(0, changed.length - LIMITS.changed)),
    scratch: union(earlier.scratch, fresh.scratch, LIMITS.scratch).filter((p) => !changed.some((c) => samePath(c.path, p))),
    checked: fresh.checked ?? earlier.checked,
    // (A round that edited says itself whether it checked since; one that did not but ran a check
    // checked every earlier edit; else the earlier round's word stands.)
    ...sinceEdit(earlier, fresh),
    cause: fresh.cause ?? earlier.cause,
    ...((fresh.cause ? fresh.causeAt : earlier.causeAt) ? { causeAt: fresh.cause ? fresh.causeAt : earlier.causeAt } : {}),
    notesRead: union(earlier.notesRead, fresh.notesRead, LIMITS.notesRead),
    searches: [...earlier.searches, ...fresh.searches].slice(-LIMITS.searches),
    lastAction: fresh.lastAction ?? earlier.lastAction,
    ...(earlier.editing || fresh.editing ? { editing: true } : {}),
    ...(earlier.shell || fresh.shell ? { shell: true } : {}),
    ...lookedUnion(earlier.looked, fresh.looked),
    ...foundUnion(earlier.found, fresh.found),
    // (extractState starts from the earlier scripts: the fresh list holds them.)
    ...((fresh.editScripts ?? earlier.editScripts) ? { editScripts: fresh.editScripts ?? earlier.editScripts } : {}),
    // (A fix planned earlier is made once this round edits a source file without planning again.)
    ...(fresh.plan ? { plan: fresh.plan } : earlier.plan && !fresh.changed.length ? { plan: earlier.plan } : {}),
  };
}

/** The places looked at over the rounds: one per name and file, the latest sighting last. */
function lookedUnion(earlier: TaskState['looked'], fresh: TaskState['looked']): Pick<TaskState, 'looked'> {
  const all = [...(earlier ?? []), ...(fresh ?? [])];
  const out = all.filter((p, i) => !all.slice(i + 1).some((q) => q.name === p.name && q.path === p.path));
  return out.length ? { looked: out.slice(Math.max(0, out.length - LIMITS.looked)) } : {};
}

/** What the searches found over the rounds: one per word and definition, the latest last. */
function foundUnion(earlier: TaskState['found'], fresh: TaskState['found']): Pick<TaskState, 'found'> {
  const all = [...(Array.isArray(earlier) ? earlier : []), ...(fresh ?? [])];
  const out = all.filter((f, i) => !all.slice(i + 1).some((g) => g.pattern === f.pattern && g.name === f.name));
  return out.length ? { found: out.slice(Math.max(0, out.length - LIMITS.found)) } : {};
}

/** Whether the latest check came after the latest edit, over the rounds. */
function sinceEdit(earlier: TaskState, fresh: TaskState): Pick<TaskState, 'checkedSinceEdit'> {
  const since = fresh.changed.length ? fresh.checkedSinceEdit === true : fresh.checked ? true : earlier.checkedSinceEdit;
  return since === undefined ? {} : { checkedSinceEdit: since };
}
