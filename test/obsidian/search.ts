// Obsidian's search helpers. Results follow the documented shape — a score (higher is better,
// never positive) and [start, end) match ranges — with a simpler scoring formula than Obsidian's,
// so compare scores only relative to each other.
import type { SearchMatches, SearchResult, SearchResultContainer } from 'obsidian';

/** Greedy in-order match of `needle` in `haystack` starting at `from`; null if it does not fit. */
function matchFrom(haystack: string, needle: string, from: number): SearchMatches | null {
  const matches: SearchMatches = [];
  let position = from;
  for (const char of needle) {
    const index = haystack.indexOf(char, position);
    if (index === -1) return null;
    const last = matches[matches.length - 1];
    if (last && last[1] === index) last[1] = index + 1;
    else matches.push([index, index + 1]);
    position = index + 1;
  }
  return matches;
}

/**
 * Query characters must appear in order. Every start is tried and the match with the fewest
 * separate ranges wins (then the earliest); fewer gaps and an earlier start score higher.
 */
export function prepareFuzzySearch(query: string): (text: string) => SearchResult | null {
  const needle = query.toLowerCase().replace(/\s+/g, '');
  return (text) => {
    if (needle === '') return { score: 0, matches: [] };
    const haystack = text.toLowerCase();
    let best: SearchMatches | null = null;
    for (let start = haystack.indexOf(needle.charAt(0)); start !== -1; start = haystack.indexOf(needle.charAt(0), start + 1)) {
      const matches = matchFrom(haystack, needle, start);
      if (!matches) break; // a later start cannot fit either
      if (!best || matches.length < best.length) best = matches;
    }
    if (!best) return null;
    const start = best[0]?.[0] ?? 0;
    return { score: -(best.length - 1) - start * 0.01 - (text.length - needle.length) * 0.001, matches: best };
  };
}

/** Every space-separated word must occur (case-insensitive); earlier occurrences score higher. */
export function prepareSimpleSearch(query: string): (text: string) => SearchResult | null {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  return (text) => {
    const haystack = text.toLowerCase();
    const matches: SearchMatches = [];
    for (const word of words) {
      const index = haystack.indexOf(word);
      if (index === -1) return null;
      matches.push([index, index + word.length]);
    }
    matches.sort((a, b) => a[0] - b[0]);
    return { score: -matches.reduce((sum, [start]) => sum + start, 0) * 0.01, matches };
  };
}

/** Writes `text` into `el`, wrapping matched ranges in `span.suggestion-highlight`. */
export function renderMatches(el: HTMLElement | DocumentFragment, text: string, matches: SearchMatches | null, offset = 0): void {
  let cursor = 0;
  for (const [rawStart, rawEnd] of matches ?? []) {
    const start = Math.max(rawStart - offset, cursor);
    const end = Math.min(rawEnd - offset, text.length);
    if (end <= start) continue;
    el.appendText(text.slice(cursor, start));
    el.createSpan({ cls: 'suggestion-highlight', text: text.slice(start, end) });
    cursor = end;
  }
  el.appendText(text.slice(cursor));
}

export function renderResults(el: HTMLElement, text: string, result: SearchResult, offset?: number): void {
  renderMatches(el, text, result.matches, offset);
}

/** Best score first. */
export function sortSearchResults(results: SearchResultContainer[]): void {
  results.sort((a, b) => b.match.score - a.match.score);
}
