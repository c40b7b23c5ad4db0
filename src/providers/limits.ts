// How much of one frame (an SSE event, an NDJSON line) a stream decoder buffers before giving up.
// A reply is made of many small frames; one frame this large is a broken or hostile server, and
// buffering it without bound would take the app's memory with it.
export const MAX_FRAME_CHARS = 8 * 1024 * 1024;

/** The error a decoder throws for an oversized frame (the runner reports it as 'malformed', with
 * the partial reply kept). */
export function frameTooLarge(what: 'An event' | 'A line'): Error {
  return new Error(`${what} in the stream was longer than ${MAX_FRAME_CHARS.toLocaleString('en-US')} characters; the rest of the reply was not read.`);
}
