// Collecting a provider's events, and a transport whose backoff waits are recorded, not slept.
import { Transport, type TransportOptions } from '../../../src/providers/transport';
import type { ProviderEvent } from '../../../src/providers/types';
import type { ProviderError } from '../../../src/providers/errors';
import { nodeRequestUrl } from './http-clients';

export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export const textOf = (events: ProviderEvent[]): string =>
  events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');

export const ofType = <T extends ProviderEvent['type']>(events: ProviderEvent[], type: T): Extract<ProviderEvent, { type: T }>[] =>
  events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);

export function errorOf(events: ProviderEvent[]): ProviderError {
  const last = events[events.length - 1];
  if (last?.type !== 'error') throw new Error(`expected a terminal error event, got ${JSON.stringify(last)}`);
  return last.error;
}

/** Every stream ends with exactly one terminal event, and nothing after it. */
export function expectOneTerminal(events: ProviderEvent[]): void {
  const terminals = events.filter((e) => e.type === 'done' || e.type === 'error');
  if (terminals.length !== 1 || terminals[0] !== events[events.length - 1]) {
    throw new Error(`expected exactly one terminal event at the end: ${events.map((e) => e.type).join(', ')}`);
  }
}

export interface TestTransport {
  transport: Transport;
  /** Backoff waits the runner asked for, in order. */
  waits: number[];
}

/** Real fetch and a real node:http fallback; waits are recorded and skipped so tests stay fast. */
export function testTransport(options: TransportOptions = {}): TestTransport {
  const waits: number[] = [];
  const transport = new Transport({
    requestUrl: nodeRequestUrl,
    sleep: (ms, signal) => {
      waits.push(ms);
      return signal?.aborted ? Promise.reject(new Error('aborted')) : Promise.resolve();
    },
    random: () => 0.5,
    ...options,
  });
  return { transport, waits };
}
