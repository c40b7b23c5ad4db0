// Frontmatter: locating the `---` block (getFrontMatterInfo) and reading the simple YAML notes use
// in it. Only flat keys are understood — scalars, `[a, b]` lists and `- item` lists — which is what
// Obsidian's Properties view writes; richer YAML yields no frontmatter rather than a wrong one.
import type { FrontMatterInfo } from 'obsidian';

const FENCE = /^---[ \t]*$/;

/** Where the frontmatter is, by character offsets; `exists` is false when the note has none. */
export function getFrontMatterInfo(content: string): FrontMatterInfo {
  const none: FrontMatterInfo = { exists: false, frontmatter: '', from: 0, to: 0, contentStart: 0 };
  const firstBreak = content.indexOf('\n');
  if (firstBreak === -1 || !FENCE.test(content.slice(0, firstBreak).replace(/\r$/, ''))) return none;
  const from = firstBreak + 1;
  let lineStart = from;
  while (lineStart <= content.length) {
    const lineEnd = content.indexOf('\n', lineStart);
    const end = lineEnd === -1 ? content.length : lineEnd;
    if (FENCE.test(content.slice(lineStart, end).replace(/\r$/, ''))) {
      return { exists: true, frontmatter: content.slice(from, lineStart), from, to: lineStart, contentStart: lineEnd === -1 ? end : end + 1 };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return none;
}

function parseScalar(raw: string): unknown {
  const value = raw.trim();
  if (value === '' || value === '~' || value === 'null') return null;
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  const quoted = /^(['"])(.*)\1$/.exec(value);
  if (quoted) return quoted[2];
  if (value.startsWith('[') && value.endsWith(']')) {
    const inner = value.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map(parseScalar);
  }
  return value;
}

/** Reads flat `key: value` YAML; returns null for anything richer (nested mappings, multi-line strings). */
export function parseSimpleYaml(text: string): Record<string, unknown> | null {
  const result: Record<string, unknown> = {};
  let listKey: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey !== null) {
      const list = result[listKey];
      result[listKey] = [...(Array.isArray(list) ? (list as unknown[]) : []), parseScalar(item[1] ?? '')];
      continue;
    }
    const pair = /^([^\s:#][^:#]*?):(?:\s+(.*))?$/.exec(line);
    if (!pair?.[1]) return null;
    const name = pair[1].trim();
    const value = pair[2]?.trim() ?? '';
    // `key:` alone is null in YAML unless `- item` lines follow.
    result[name] = value === '' ? null : parseScalar(value);
    listKey = value === '' ? name : null;
  }
  return result;
}
