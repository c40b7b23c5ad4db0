// References in message text: Obsidian wikilinks and embeds (with #heading, ^block and |alias),
// markdown links, URLs and file paths. De-duplicated by target; ranked by mentions and recency.
import type { Reference, ReferenceKind } from './record';
import { isSpaceCode } from './text';

export interface FoundReference {
  kind: ReferenceKind;
  text: string;
  key: string;
}

// [[target#heading^block|alias]] and ![[…]]: found by `nextWikilink` below, a scan that reads
// as this pattern would (a target never holds ] | # ^; no part holds ] or a line break).
// [text](target) — not images' URLs only: note links like (Notes/Plan.md) or (Plan%20B.md).
const MD_LINK = /(!?)\[([^\]\n]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const URL = /\bhttps?:\/\/[^\s<>"'`)\]]+/g;
// Paths: at least one directory separator and a file name with an extension, or a bare file name
// with a known text/code extension. Kept conservative: prose like "and/or" must not match.
const PATH =
  /(?:^|[\s("'`=:])((?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8}|[\w@-][\w.@-]*\.(?:md|txt|ts|tsx|js|mjs|cjs|jsx|py|rs|go|java|rb|json|ya?ml|toml|css|scss|html|sh|sql|c|h|cpp|hpp|cs|kt|swift|php|ini|cfg|csv|pdf|png|jpe?g|canvas))(?=$|[\s)"'`,;:!?]|\.(?:\s|$))/gm;

// A quoted path may hold spaces, as Obsidian note names often do: "Projects/Garden plan.md".
const QUOTED_END = /\.(?:md|canvas|txt|pdf|png|jpe?g|csv|json|ya?ml)["'`]/;
const QUOTED_PATH = /(["'`])((?:[^"'`\n/]*\/)*[^"'`\n/]*[^\s"'`/]\.(?:md|canvas|txt|pdf|png|jpe?g|csv|json|ya?ml))\1/g;

/** Wikilinks already read, by their exact text: a note links the same few notes again and again,
 * and the reference objects are never changed by their readers (they copy what they keep).
 * Module-private; cleared when it grows past LINK_CACHE_LIMIT. Output never depends on it. */
const linkCache = new Map<string, FoundReference | null>();
const LINK_CACHE_LIMIT = 5000;

/** Where the last `nextWikilink` found link ends. */
let linkEnd = 0;

/** Start of the next wikilink or embed at or after `from` (its end in `linkEnd`), or -1. What the
 * pattern `(!?)\[\[([^\]|#^\n]*)(#[^\]|^\n]*)?(\^[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]` finds, without
 * a match array and its six strings per link: between the brackets any text without ] or a line
 * break parses (target, then #heading, ^block, |alias, each optional). */
function nextWikilink(text: string, from: number): number {
  let open = text.indexOf('[[', from);
  while (open >= 0) {
    const close = text.indexOf(']', open + 2);
    if (close < 0) return -1;
    if (text.charCodeAt(close + 1) === 93) {
      let i = open + 2;
      while (i < close && text.charCodeAt(i) !== 10) i++;
      if (i === close) {
        linkEnd = close + 2;
        return open > from && text.charCodeAt(open - 1) === 33 ? open - 1 : open; // "!": an embed
      }
    }
    open = text.indexOf('[[', open + 1);
  }
  return -1;
}

/** The reference a wikilink names (`link` is its whole text, from `nextWikilink`), or null for
 * an empty one. */
function wikilinkOf(link: string): FoundReference | null {
  const hit = linkCache.get(link);
  if (hit !== undefined) return hit;
  const embed = link.charCodeAt(0) === 33;
  const inner = link.slice(embed ? 3 : 2, -2);
  // Target up to the first | # ^; a heading up to | or ^; a block up to |; the alias is the rest.
  let i = 0;
  while (i < inner.length && !'|#^'.includes(inner[i] as string)) i++;
  const target = inner.slice(0, i).trim();
  let heading = '';
  if (inner[i] === '#') {
    const h = i;
    i++;
    while (i < inner.length && inner[i] !== '|' && inner[i] !== '^') i++;
    heading = inner.slice(h, i);
  }
  let block = '';
  if (inner[i] === '^') {
    const b = i;
    while (i < inner.length && inner[i] !== '|') i++;
    block = inner.slice(b, i);
  }
  const alias = inner[i] === '|' ? `|${inner.slice(i + 1).trim()}` : '';
  let ref: FoundReference | null = null;
  if (target || heading || block) {
    const core = `${target}${heading}${block}`;
    ref = { kind: embed ? 'embed' : 'wikilink', text: `${embed ? '!' : ''}[[${core}${alias}]]`, key: `note:${core.toLowerCase()}` };
  }
  if (linkCache.size >= LINK_CACHE_LIMIT) linkCache.clear();
  linkCache.set(link, ref);
  return ref;
}

/** All references in a text, in order of appearance (with repeats). */
export function findReferences(text: string): FoundReference[] {
  // Cheap prefilter: every kind needs a bracket, a slash or a dot.
  if (!/[[\]/.]/.test(text)) return [];
  const found: { at: number; ref: FoundReference }[] = [];
  // Characters inside a link already found: a URL or path there is part of that link. A mask
  // rather than a list of ranges, so a note full of links costs one pass, not links × links; built
  // only when a later kind asks (most text with links holds wikilinks alone).
  let taken: Uint8Array | null = null;
  const spans: number[] = [];
  const take = (s: number, e: number): void => {
    if (taken) taken.fill(1, s, e);
    else spans.push(s, e);
  };
  const overlaps = (s: number, e: number): boolean => {
    if (!taken) {
      if (!spans.length) return false;
      taken = new Uint8Array(text.length);
      for (let i = 0; i < spans.length; i += 2) taken.fill(1, spans[i], spans[i + 1]);
    }
    for (let i = s; i < e; i++) if (taken[i]) return true;
    return false;
  };

  // Each kind runs only where its own marker occurs: most chat text holds none.
  for (let start = nextWikilink(text, 0); start >= 0; start = nextWikilink(text, linkEnd)) {
    const end = linkEnd;
    const ref = wikilinkOf(text.slice(start, end));
    if (!ref) continue;
    found.push({ at: start, ref });
    take(start, end);
  }
  if (text.includes('](')) for (const m of text.matchAll(MD_LINK)) {
    if (overlaps(m.index, m.index + m[0].length)) continue;
    const target = m[3] ?? '';
    take(m.index, m.index + m[0].length);
    if (/^https?:\/\//i.test(target)) {
      // (A web image shown in the text, "![a laptop](https://…)", is a picture, not a source.)
      if (m[1] === '!') continue;
      found.push({ at: m.index, ref: { kind: 'url', text: target, key: `url:${target}` } });
    } else if (!/^(?:mailto:|#)/i.test(target)) {
      let decoded = target;
      try {
        decoded = decodeURI(target);
      } catch {
        // A malformed escape: keep the raw target.
      }
      found.push({ at: m.index, ref: { kind: 'markdown-link', text: `[${m[2] ?? ''}](${target})`, key: `note:${decoded.toLowerCase()}` } });
    }
  }
  if (text.includes('http')) for (const m of text.matchAll(URL)) {
    if (overlaps(m.index, m.index + m[0].length)) continue;
    // (A URL template, "https://example.com/?<PUT YOUR QUERY HERE>", names no page.)
    const next = text.charCodeAt(m.index + m[0].length);
    if (next === 60 || next === 123) continue;
    const url = m[0].replace(/[.,;:!?]+$/, '');
    found.push({ at: m.index, ref: { kind: 'url', text: url, key: `url:${url}` } });
    take(m.index, m.index + m[0].length);
  }
  // A quoted path ends in a known extension and a quote.
  if (QUOTED_END.test(text)) for (const m of text.matchAll(QUOTED_PATH)) {
    const path = (m[2] ?? '').trim();
    // Only names with a space need this: the plain pattern below finds the rest.
    if (!path.includes(' ') || path.length > 200) continue;
    found.push({ at: m.index + 1, ref: { kind: 'path', text: path, key: `path:${path}` } });
    take(m.index, m.index + m[0].length);
  }
  for (const [from, m] of pathMatches(text)) {
    const path = m[1] ?? '';
    const start = from + (m.index ?? 0) + m[0].length - path.length;
    if (!path || overlaps(start, start + path.length)) continue;
    if (/^\d+(?:\.\d+)+$/.test(path)) continue; // version numbers
    // "Projects/Garden redesign.md" unquoted: the tail after the space is no file of its own.
    if (!path.includes('/') && /\/[^\s/]*[ \t]$/.test(text.slice(Math.max(0, start - 80), start))) continue;
    found.push({ at: start, ref: { kind: 'path', text: path, key: `path:${path}` } });
  }
  // In order of appearance; the kinds were found one after another, so sort only when mixed.
  let sorted = true;
  for (let i = 1; i < found.length && sorted; i++) if ((found[i] as { at: number }).at < (found[i - 1] as { at: number }).at) sorted = false;
  if (!sorted) found.sort((a, b) => a.at - b.at);
  return found.map((f) => f.ref);
}

/** True for an ASCII letter or digit (what follows the dot of a file extension). */
function isAlnumCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * The PATH matches of a text, each with the offset of the piece it was matched in. A path has no
 * whitespace and a dot before its extension's first letter or digit, so only the words holding
 * such a dot are matched (with the character before and after each: the pattern's prefix and
 * lookahead) — running the pattern over all of a long message's prose is what would cost.
 */
function* pathMatches(text: string): Generator<[number, RegExpMatchArray]> {
  const n = text.length;
  let dot = text.indexOf('.');
  while (dot >= 0 && dot + 1 < n) {
    if (!isAlnumCode(text.charCodeAt(dot + 1))) {
      dot = text.indexOf('.', dot + 1);
      continue;
    }
    let a = dot;
    while (a > 0 && !isSpaceCode(text.charCodeAt(a - 1))) a--;
    let b = dot + 1;
    while (b < n && !isSpaceCode(text.charCodeAt(b))) b++;
    // The piece starts on the whitespace before the word (or the text's start), so `^` can only
    // match where it would in the whole text.
    const from = Math.max(0, a - 1);
    for (const m of text.slice(from, Math.min(n, b + 1)).matchAll(PATH)) yield [from, m];
    dot = text.indexOf('.', b);
  }
}

/**
 * Adds a message's references to an accumulating map keyed by target. `position` orders mentions
 * (higher is more recent); `weight` lets user mentions count more than ones inside tool output.
 */
export function addReferences(into: Map<string, Reference>, text: string | readonly FoundReference[], sourceId: string, position: number, weight = 1): void {
  for (const ref of typeof text === 'string' ? findReferences(text) : text) {
    const existing = into.get(ref.key);
    if (existing) {
      existing.count += weight;
      existing.last = Math.max(existing.last, position);
      if (existing.sources[existing.sources.length - 1] !== sourceId && !hasSource(existing, sourceId)) existing.sources.push(sourceId);
      // Prefer a link with an alias or heading: it says more than the bare target.
      if (ref.text.length > existing.text.length && ref.kind === existing.kind) existing.text = ref.text;
    } else {
      // Spelled out rather than spread: a spread copy is many times slower, and this runs per link.
      into.set(ref.key, { kind: ref.kind, text: ref.text, key: ref.key, sources: [sourceId], count: weight, last: position });
    }
  }
}

/** Source ids of a reference being accumulated, as a set beside its list: a link mentioned in
 * every message must not make each mention a scan of all the earlier ones. (Rebuilt when the list
 * was changed elsewhere.) */
const sourceSets = new WeakMap<Reference, { n: number; set: Set<string> }>();

function hasSource(ref: Reference, id: string): boolean {
  if (ref.sources.length < 16) return ref.sources.includes(id);
  let s = sourceSets.get(ref);
  if (!s || s.n !== ref.sources.length) {
    s = { n: ref.sources.length, set: new Set(ref.sources) };
    sourceSets.set(ref, s);
  }
  const has = s.set.has(id);
  if (!has) {
    // The caller pushes it next.
    s.set.add(id);
    s.n++;
  }
  return has;
}

/** Most relevant first: mentions, then recency, then text (a total order, for determinism). */
export function rankReferences(refs: Iterable<Reference>): Reference[] {
  return [...refs].sort((a, b) => b.count - a.count || b.last - a.last || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}
