// Newline-delimited JSON over a text stream, for Ollama's /api/chat. Lines may be split anywhere
// across chunks; blank lines are skipped. Parsing the JSON is the caller's job, so a malformed
// line can be reported with the protocol's own words.

export async function* ndjsonLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const chunk of chunks) {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield line;
      newline = buffer.indexOf('\n');
    }
  }
  const last = buffer.trim();
  if (last) yield last;
}
