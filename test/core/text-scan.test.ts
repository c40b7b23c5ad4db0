// The sentence splitter and the lead-in check read the ends of a text by scanning backwards
// (text.ts) instead of running end-anchored patterns over the whole text: the answers must be the
// patterns' answers. The reference below is the splitter as it was written with those patterns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dangles } from '../../src/core/extract-sentences';
import { mergeSamePaths, samePath } from '../../src/core/extract-files';
import { isLeadIn, isSpaceCode, squash } from '../../src/core/text';
import { protectedRanges, splitSentences } from '../../src/core/sentence-split';

const SENTENCE_END = /([.!?…]+["'”’)\]*_`]*)\s+(?=["'“‘([*_`]{0,3}[\p{Lu}\p{N}\p{Lo}])|([。！？]+)/gu;
const ABBREVIATIONS = new Set('e.g i.e vs mr mrs ms dr prof st fig figs approx cf al u.s u.k a.k.a ph.d'.split(' '));
const BEFORE_NUMBER = new Set('no nos vol pp p ch sec jan feb mar apr jun jul aug sep sept oct nov dec'.split(' '));
const LAST_WORD = /(?:^|[\s(["'“‘])([\p{L}.]+)\.$/u;
const INITIAL = /(?:^|[\s.])\p{Lu}\.$/u;

function referenceAbbreviation(piece: string, next: number): boolean {
  if (piece.charCodeAt(piece.length - 1) !== 46) return false;
  if (INITIAL.test(piece) || /^[*_]*\d{1,3}\.$/.test(piece)) return true;
  const m = LAST_WORD.exec(piece);
  if (!m) return false;
  const word = (m[1] ?? '').toLowerCase();
  return ABBREVIATIONS.has(word) || (next >= 48 && next <= 57 && BEFORE_NUMBER.has(word));
}

function referenceRanges(line: string): number[] {
  if (!line.includes('[') && !line.includes('`')) return [];
  const out: number[] = [];
  const re = /\[\[[^\]\n]*\]\]|\[[^\]\n]*\]\([^)\n]*\)|(`+)[^`\n]*?\1/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m.index, m.index + m[0].length);
  return out;
}

function referenceSplit(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.includes('\n') ? text.split(/\n+/) : [text]) {
    const line = rawLine.trim();
    if (!line) continue;
    let start = 0;
    let ranges: number[] | null = null;
    SENTENCE_END.lastIndex = 0;
    while (SENTENCE_END.test(line)) {
      const after = SENTENCE_END.lastIndex;
      let end = after;
      while (end > start && isSpaceCode(line.charCodeAt(end - 1))) end--;
      const spaced = end < after;
      const piece = line.slice(start, end).trim();
      if (spaced && referenceAbbreviation(piece, line.charCodeAt(after))) continue;
      ranges ??= referenceRanges(line);
      if (ranges.length) {
        let inside = false;
        for (let i = 0; i < ranges.length; i += 2) if (end > (ranges[i] as number) && end < (ranges[i + 1] as number)) inside = true;
        if (inside) continue;
      }
      if (piece) out.push(piece);
      start = after;
    }
    const rest = line.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}

/** Text built from what the end-of-sentence rules look at: abbreviations, initials, list numbers,
 * openers, closers, accented and astral letters (𝐀 is an astral capital), CJK stops, odd spaces. */
const endsText = fc
  .array(
    fc.oneof(
      fc.constantFrom('“e.g.', '‘Dr.', '(No.', '[vs.', '"cf.', 'xDr.', '.e.g.', 'e.g.', 'E.G.', 'i.e.', 'Dr.', 'dr.', 'Mr.', 'No.', 'no.', 'Jan.', 'pp.', 'p.', 'J.', 'K.', 'É.', 'Ł.', '𝐀.', '𝐚.', 'ph.d.', 'U.S.', 'a.k.a.', 'Straße.', 'café.', '1.', '**1.', '_12.'),
      fc.constantFrom(' ', '  ', '\u00a0', '\u3000', '\t', '\n', '(', '[', '"', "'", '“', '‘', '”', '’', ')', ']', '*', '_', '`', ':', '：', '.', '!', '?', '…', '。', '！'),
      fc.constantFrom('Paris', 'paris', '5', '2020', 'Smith', 'the', 'É', 'über', '会议', '𝐀bc', '[[Note. A]]', '[a. B](x)', '`x. Y`', 'x', 'İ'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

describe('backward end scans', () => {
  it('split sentences exactly where the end-anchored patterns did', () => {
    fc.assert(
      fc.property(endsText, (text) => {
        expect(splitSentences(text)).toEqual(referenceSplit(text));
      }),
      { numRuns: 4000 },
    );
  });

  it('find links and code spans exactly where the pattern did', () => {
    const marked = fc
      .array(fc.oneof(fc.constantFrom('[', ']', '[[', ']]', '(', ')', '`', '``', '```', '\n', ' ', 'a', 'B.', '](', '[x]', '`y`'), fc.string({ unit: 'binary', maxLength: 2 })), { maxLength: 20 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(marked, endsText), (text) => {
        expect(protectedRanges(text)).toEqual(referenceRanges(text));
      }),
      { numRuns: 6000 },
    );
    expect(protectedRanges('a ``b`` and ```c`` and `d')).toEqual(referenceRanges('a ``b`` and ```c`` and `d'));
  });

  it('squash whitespace exactly as the pattern did, text already squashed given back as it is', () => {
    const spaced = fc
      .array(fc.oneof(fc.constantFrom(' ', '  ', '\u00a0', '\u2009', '\u3000', '\ufeff', '\t', '\n', '\r', '\v', '\f', '\u2028', '\u0085', '\u200b'), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 16 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(spaced, endsText), (text) => {
        expect(squash(text)).toBe(text.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 4000 },
    );
  });

  it('tell a lead-in exactly as the pattern did', () => {
    fc.assert(
      fc.property(endsText, (text) => {
        expect(isLeadIn(text)).toBe(/[:：]["'”’)\]*_`]*\s*$/u.test(text));
      }),
      { numRuns: 4000 },
    );
  });

  it('tell a line left dangling exactly as the pattern did', () => {
    const DANGLING = /\b(?:by|to|of|the|a|an|and|or|but|with|for|in|on|at|that|as|from|into|is|are|was|were|be|like|than|because|if|when|which|who)\s*$/i;
    const words = fc.constantFrom('by', 'To', 'THE', 'because', 'Because', 'becausex', 'a', 'an', 'x', 'café', 'é', 'to_', '_to', '2to', 'who', 'whom', 'ſ', 'K', 'ıf');
    const line = fc.array(fc.oneof(words, fc.constantFrom(' ', '\u00a0', '\t', '.', ',', '-', "'"), fc.string({ unit: 'binary', maxLength: 2 })), { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(line, (text) => {
        expect(dangles(text)).toBe(DANGLING.test(text));
      }),
      { numRuns: 4000 },
    );
  });

  it('keep the cases the rules were written for', () => {
    expect(splitSentences('See e.g. Paris. Then go.')).toEqual(['See e.g. Paris.', 'Then go.']);
    expect(splitSentences('Ask Dr. Smith. He knows.')).toEqual(['Ask Dr. Smith.', 'He knows.']);
    expect(splitSentences('George R. R. Martin wrote it. Yes.')).toEqual(['George R. R. Martin wrote it.', 'Yes.']);
    expect(splitSentences('I said no. Then we left.')).toEqual(['I said no.', 'Then we left.']);
    expect(splitSentences('See No. 5 here.')).toEqual(['See No. 5 here.']);
    expect(isLeadIn('Two things to try:** ')).toBe(true);
    expect(isLeadIn('Time: 14:30 today')).toBe(false);
  });

  it('tell two paths the same as the built string did, and merge them as a scan of every pair did', () => {
    const reference = (a: string, b: string): boolean => {
      if (a === b) return true;
      const [long, short] = a.length > b.length ? [a, b] : [b, a];
      return !short.startsWith('/') && short.includes('/') && long.endsWith(`/${short}`);
    };
    const path = fc.array(fc.constantFrom('a', 'b', '/', 'x.py', 'src', '.', ''), { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(path, path, (a, b) => {
        expect(samePath(a, b)).toBe(reference(a, b));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.array(path, { maxLength: 12 }), (paths) => {
        const entries = paths.map((p, i) => ({ path: p, sources: [`m${i % 3}`], last: i }));
        const out: typeof entries = [];
        for (const e of [...entries].sort((x, y) => y.path.length - x.path.length)) {
          const into = out.find((o) => reference(o.path, e.path));
          if (!into) out.push({ ...e, sources: [...e.sources] });
          else {
            into.last = Math.max(into.last, e.last);
            for (const id of e.sources) if (!into.sources.includes(id)) into.sources.push(id);
          }
        }
        expect(mergeSamePaths(entries)).toEqual(out);
      }),
      { numRuns: 1000 },
    );
  });
});
