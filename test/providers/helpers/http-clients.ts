// Real HTTP clients for tests: a `requestUrl` stand-in over node:http (Obsidian's requestUrl is
// likewise not subject to CORS), and a `fetch` that enforces CORS as a browser does, so the
// transport's fallback is exercised by a genuine refusal rather than a stub.
import { request as httpRequest } from 'node:http';
import type { FallbackRequest } from '../../../src/providers/fallback-exchange';
import type { FetchLike } from '../../../src/providers/fetch-exchange';

export const nodeRequestUrl: FallbackRequest = (params) =>
  new Promise((resolve, reject) => {
    const req = httpRequest(params.url, { method: params.method, headers: params.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers)) if (typeof value === 'string') headers[key] = value;
        resolve({ status: res.statusCode ?? 0, headers, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (params.body !== undefined) req.write(params.body);
    req.end();
  });

/** What Obsidian's renderer sends as Origin. */
export const APP_ORIGIN = 'app://obsidian.md';

/**
 * `fetch` with a browser's CORS checks: a preflight OPTIONS for the non-simple request (JSON body,
 * custom headers), then the request itself; a missing Access-Control-Allow-Origin on either makes
 * it fail the way a browser does, with an opaque TypeError.
 */
export const browserFetch: FetchLike = async (url, init) => {
  const headerNames = Object.keys((init.headers ?? {}) as Record<string, string>).map((h) => h.toLowerCase());
  const preflightInit: RequestInit = {
    method: 'OPTIONS',
    headers: { Origin: APP_ORIGIN, 'Access-Control-Request-Method': init.method ?? 'GET', 'Access-Control-Request-Headers': headerNames.join(',') },
  };
  if (init.signal) preflightInit.signal = init.signal;
  const preflight = await fetch(url, preflightInit);
  await preflight.arrayBuffer();
  if (!preflight.headers.get('access-control-allow-origin')) throw new TypeError('Failed to fetch');
  const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: APP_ORIGIN } });
  if (!response.headers.get('access-control-allow-origin')) {
    await response.body?.cancel();
    throw new TypeError('Failed to fetch');
  }
  return response;
};

/**
 * `browserFetch`, plus what a browser does with `redirect: 'manual'`: the redirect comes back as
 * an opaque response (type 'opaqueredirect', status 0, no headers), so the new address is hidden.
 */
export const browserFetchOpaqueRedirects: FetchLike = async (url, init) => {
  const response = await browserFetch(url, init);
  if (init.redirect !== 'manual' || response.status < 300 || response.status > 399) return response;
  await response.body?.cancel();
  return { type: 'opaqueredirect', status: 0, ok: false, headers: new Headers(), body: null } as unknown as Response;
};
