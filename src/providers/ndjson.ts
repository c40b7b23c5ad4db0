// Newline-delimited JSON over a text stream, for Ollama's /api/chat. Lines may be split anywhere
// across chunks; blank lines are skipped. Parsing the JSON is the caller's job, so a malformed
// line can be reported with the protocol's own words.
//
// Linear time: only each new chunk is searched for newlines, and the pieces of an unfinished line
// are kept in a list and joined once, when its newline arrives (re-slicing one growing buffer per
// chunk is quadratic: a 60 MB line took 38 s). A line longer than MAX_FRAME_CHARS is refused.
import { MAX_FRAME_CHARS, frameTooLarge } from './limits';

export async function* ndjsonLines(chunks: AsyncIterable<string>, maxLineChars = MAX_FRAME_CHARS): AsyncGenerator<string> {
  let pieces: string[] = [];
  let pending = 0;
  for await (const chunk of chunks) {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline >= 0) {
      if (pending + newline - start > maxLineChars) throw frameTooLarge('A line');
      pieces.push(chunk.slice(start, newline));
      const line = (pieces.length === 1 ? (pieces[0] as string) : pieces.join('')).trim();
      pieces = [];
      pending = 0;
      if (line) yield line;
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) {
      pending += chunk.length - start;
      if (pending > maxLineChars) throw frameTooLarge('A line');
      pieces.push(start === 0 ? chunk : chunk.slice(start));
    }
  }
  const last = pieces.join('').trim();
  if (last) yield last;
}
