// Server-sent events over a text stream, for the OpenAI-compatible and Anthropic protocols.
//
// Parsed with `eventsource-parser` rather than by hand: SSE has enough corners (CR, LF and CRLF
// line ends, multi-line `data:`, comments such as OpenRouter's ": OPENROUTER PROCESSING" keep-alives,
// events split anywhere across chunks) that a small, well-kept, dependency-free parser is safer
// than our own. It is pure TypeScript with ESM and CJS builds, so it bundles for mobile too.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { MAX_FRAME_CHARS, frameTooLarge } from './limits';

export async function* sseEvents(chunks: AsyncIterable<string>): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    onError: (error) => {
      // Unknown fields and bad `retry:` values are ignored as the SSE spec says; only an event
      // that will not fit is fatal.
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize: MAX_FRAME_CHARS,
  });
  for await (const chunk of chunks) {
    if (overflow) break;
    parser.feed(chunk);
    while (queue.length) yield queue.shift() as EventSourceMessage;
  }
  if (overflow) throw frameTooLarge('An event');
  // A final event without its terminating blank line still counts (a buffered body may omit it).
  parser.reset({ consume: true });
  while (queue.length) yield queue.shift() as EventSourceMessage;
}
