// Redirects, decided by hand. `fetch` follows redirects by itself and keeps custom headers
// (Anthropic's `x-api-key`) on a cross-origin hop, and on 307/308 re-posts the conversation there
// too. So the transport asks fetch not to follow (`redirect: 'manual'`) and this module says what
// a redirect may do: within the configured origin it is followed (the credentials stay where the
// user sent them); to any other origin, or to an address the browser hides from us (an opaque
// redirect), it is refused with a message that names the new address, so the user can put it in
// the settings if it is right.
import { ProviderError } from './errors';
import type { HttpRequest } from './http';

/** More hops than any sane server needs; a loop ends here. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/** Header names that carry a credential, whatever the protocol calls it. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-goog-api-key)$/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

export function hasCredentials(headers: Record<string, string>): boolean {
  return Object.keys(headers).some(isCredentialHeader);
}

/** The headers without any credential (probes carry none). */
export function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!isCredentialHeader(name)) out[name] = value;
  return out;
}

export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function refused(status: number, message: string): ProviderError {
  return new ProviderError('bad-request', message, { status, detail: 'redirect' });
}

/**
 * The request to send for a redirect answer (`status`, `location`; `location` null when the
 * browser hid it), or a ProviderError of kind 'bad-request' when the redirect may not be followed.
 * `hop` counts redirects already followed.
 */
export function followRedirect(request: HttpRequest, status: number, location: string | null, hop: number): HttpRequest {
  const from = originOf(request.url);
  const advice = 'The API key and the conversation are sent only to the address in the plugin settings: if the new address is right, enter it there.';
  if (location === null || location === '') {
    throw refused(status, `The server at ${from} redirected the request to an address the app cannot see (HTTP ${status || 'redirect'}). ${advice}`);
  }
  let target: URL;
  try {
    target = new URL(location, request.url);
  } catch {
    throw refused(status, `The server at ${from} redirected the request to an invalid address (HTTP ${status}).`);
  }
  if (target.origin !== from) {
    throw refused(status, `The server at ${from} redirected the request to ${target.origin} (HTTP ${status}). ${advice}`);
  }
  if (hop >= MAX_REDIRECTS) throw refused(status, `The server at ${from} redirected the request more than ${MAX_REDIRECTS} times.`);
  // 303 means "fetch the answer with GET"; the others keep the method and body (same origin, so
  // nothing leaves the server the user configured).
  if (status === 303) return { url: target.href, method: 'GET', headers: withoutBody(request.headers) };
  return { ...request, url: target.href };
}

function withoutBody(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'content-type') out[name] = value;
  return out;
}
