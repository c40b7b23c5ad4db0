// The part of a streamed request that is the same for every protocol: send, retry 429/5xx with
// backoff, turn HTTP failures into specific errors, run the protocol's decoder, and guarantee the
// event contract (one transport event before any text, exactly one terminal event, the partial
// reply kept on every failure, the connection closed however the stream ends).
import { ProviderError, classifyHttpError, resolveNotFound, type ProviderLabel } from './errors';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retriesFor, retryDelay, type RetryPolicy } from './retry';
import type { HttpRequest, HttpResponse } from './http';
import type { Transport } from './transport';
import type { ProviderEvent } from './types';

/** The events a protocol decoder produces from the body; the runner adds the rest. */
export type DecodedEvent = Extract<ProviderEvent, { type: 'text' | 'tool-call' | 'usage' | 'done' }>;

export interface ProtocolCall {
  label: ProviderLabel;
  model: string;
  apiKey: string | undefined;
  request: HttpRequest;
  /** Decodes the body. Throws a ProviderError for an error the server sent inside the stream or a
   * line it cannot read. Returning without a `done` event means the stream broke off. */
  decode(chunks: AsyncIterable<string>): AsyncIterable<DecodedEvent>;
  /** Used to list what the server has when it does not know the model. */
  listModels(signal?: AbortSignal): Promise<string[]>;
}

/** Error bodies are read for their message only; a server that streams megabytes of HTML as an
 * error page does not need to be read to the end. */
const MAX_ERROR_BODY = 64 * 1024;

async function readErrorBody(response: HttpResponse): Promise<string> {
  let body = '';
  try {
    for await (const chunk of response.chunks()) {
      body += chunk;
      if (body.length > MAX_ERROR_BODY) break;
    }
  } catch {
    // The message is a nicety; the status alone still classifies the error.
  } finally {
    response.close();
  }
  return body.slice(0, MAX_ERROR_BODY);
}

/** Gives transport and decoder errors the provider's name, the user's next step and the partial
 * reply. */
export function finishError(error: unknown, label: ProviderLabel, partialText: string): ProviderError {
  let result: ProviderError;
  if (error instanceof ProviderError) {
    const init = { detail: error.detail, status: error.status, retryAfterMs: error.retryAfterMs, availableModels: error.availableModels };
    switch (error.kind) {
      case 'connection':
        result = new ProviderError('connection', `Could not connect to ${label.name} (${error.detail ?? 'network error'}). ${label.connectionHint}`, init);
        break;
      case 'timeout':
        result =
          error.detail === 'idle'
            ? new ProviderError('timeout', `${label.name} stopped sending mid-reply. ${error.message}`, init)
            : new ProviderError('timeout', `${label.name} did not answer in time. ${error.message}`, init);
        break;
      case 'interrupted':
        result = new ProviderError('interrupted', `The reply from ${label.name} was cut off. ${error.message}`, init);
        break;
      default:
        result = error;
    }
  } else {
    const detail = error instanceof Error ? error.message : String(error);
    result = new ProviderError('malformed', `${label.name} sent a reply that could not be read: ${detail}`, { detail });
  }
  if (partialText) result.partialText = partialText;
  return result;
}

export async function* runStream(
  transport: Transport,
  call: ProtocolCall,
  signal: AbortSignal | undefined,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): AsyncGenerator<ProviderEvent> {
  let partial = '';
  try {
    let response: HttpResponse | undefined;
    for (let attempt = 0; !response; attempt++) {
      const candidate = await transport.send(call.request, signal);
      if (candidate.ok) {
        response = candidate;
        break;
      }
      const body = await readErrorBody(candidate);
      const retryAfterMs = parseRetryAfter((name) => candidate.header(name), transport.now());
      const { error, retryable } = classifyHttpError({
        status: candidate.status,
        body,
        label: call.label,
        model: call.model,
        apiKey: call.apiKey,
        retryAfterMs,
      });
      const maxRetries = retriesFor(candidate.status, policy);
      if (retryable && attempt < maxRetries) {
        const delay = retryDelay(attempt + 1, retryAfterMs, policy, transport.random);
        if (delay !== null) {
          yield { type: 'retry', attempt: attempt + 1, maxRetries, delayMs: delay, reason: error.message };
          await transport.sleep(delay, signal);
          continue;
        }
      }
      let final = error;
      if (final.kind === 'model-not-found' || final.kind === 'not-found') {
        const available = await call.listModels(signal).catch(() => null);
        if (signal?.aborted) throw new ProviderError('aborted', 'Stopped.');
        final = resolveNotFound(final, call.label, call.model, available);
      } else if (retryable && attempt > 0) {
        final = new ProviderError(final.kind, `${final.message} (Gave up after ${attempt} ${attempt === 1 ? 'retry' : 'retries'}.)`, {
          status: final.status,
          detail: final.detail,
          retryAfterMs: final.retryAfterMs,
        });
      }
      yield { type: 'error', error: final };
      return;
    }

    yield response.fallbackReason
      ? { type: 'transport', mode: response.mode, reason: response.fallbackReason }
      : { type: 'transport', mode: response.mode };
    try {
      for await (const event of call.decode(response.chunks())) {
        if (event.type === 'text') partial += event.delta;
        yield event;
        if (event.type === 'done') return;
      }
    } finally {
      response.close();
    }
    if (signal?.aborted) throw new ProviderError('aborted', 'Stopped.');
    throw new ProviderError('interrupted', 'The stream ended before the reply was complete.');
  } catch (error) {
    // Whatever broke while the user was stopping the reply (a cancelled read, a cancelled wait),
    // the reply was stopped.
    const cause = signal?.aborted ? new ProviderError('aborted', 'Stopped.') : error;
    yield { type: 'error', error: finishError(cause, call.label, partial) };
  }
}

/** A GET that returns JSON (model lists). Rejects with a ProviderError; no retries. */
export async function requestJson(transport: Transport, request: HttpRequest, label: ProviderLabel, apiKey: string | undefined, signal?: AbortSignal): Promise<unknown> {
  let response: HttpResponse;
  try {
    response = await transport.send(request, signal);
  } catch (error) {
    throw finishError(error, label, '');
  }
  if (!response.ok) {
    const body = await readErrorBody(response);
    const { error } = classifyHttpError({
      status: response.status,
      body,
      label,
      model: '',
      apiKey,
      retryAfterMs: parseRetryAfter((name) => response.header(name), transport.now()),
    });
    // A 404 on a list endpoint means the server has no such list, not that a model is missing.
    if (response.status === 404) throw new ProviderError('not-found', `${label.name} does not offer a model list (HTTP 404).`, { status: 404 });
    throw error;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw finishError(error, label, '');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError('malformed', `${label.name} sent a model list that is not JSON.`);
  }
}
