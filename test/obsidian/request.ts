// Obsidian's requestUrl, over fetch. Like Obsidian's it buffers the whole response and rejects
// statuses ≥ 400 ("Request failed, status 404", with `status` and `headers` on the error) unless
// `throw: false`. Unlike Obsidian's (which goes through Electron's network stack), a browser
// fetch is subject to CORS.
import type { RequestUrlParam, RequestUrlResponse, RequestUrlResponsePromise } from 'obsidian';

function toParam(request: RequestUrlParam | string): RequestUrlParam {
  return typeof request === 'string' ? { url: request } : request;
}

async function perform(param: RequestUrlParam): Promise<RequestUrlResponse> {
  const headers = new Headers(param.headers);
  if (param.contentType) headers.set('content-type', param.contentType);
  const response = await fetch(param.url, { method: param.method ?? 'GET', headers, body: param.body });
  const arrayBuffer = await response.arrayBuffer();
  const text = new TextDecoder().decode(arrayBuffer);
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  if (response.status >= 400 && param.throw !== false) {
    throw Object.assign(new Error(`Request failed, status ${response.status}`), { status: response.status, headers: responseHeaders });
  }
  return {
    status: response.status,
    headers: responseHeaders,
    arrayBuffer,
    text,
    // Parsed on access, as in Obsidian: reading `json` of a non-JSON body throws there and then.
    get json(): unknown {
      return JSON.parse(text) as unknown;
    },
  };
}

export function requestUrl(request: RequestUrlParam | string): RequestUrlResponsePromise {
  const promise = perform(toParam(request));
  // The shortcut promises are made lazily, so an unused `.json` of a non-JSON reply cannot become
  // an unhandled rejection.
  return Object.defineProperties(promise, {
    arrayBuffer: { get: () => promise.then((r) => r.arrayBuffer) },
    json: { get: () => promise.then((r) => r.json as unknown) },
    text: { get: () => promise.then((r) => r.text) },
  }) as RequestUrlResponsePromise;
}

/** The response body as text. */
export async function request(req: RequestUrlParam | string): Promise<string> {
  return (await requestUrl(req)).text;
}
