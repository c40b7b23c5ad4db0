// Errors are part of the product: each failure a user can meet gets a kind the chat loop can act
// on (compact and retry, offer the model list, keep the partial reply) and a message a person can
// act on. Server text is quoted, shortened and stripped of the API key before it reaches a message.

export type ProviderErrorKind =
  | 'auth'
  | 'model-not-found'
  /** The URL itself does not exist (a wrong base URL), as opposed to an unknown model. */
  | 'not-found'
  | 'rate-limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'interrupted'
  | 'malformed'
  | 'context-overflow'
  | 'aborted'
  | 'bad-request';

export interface ProviderErrorInit {
  status?: number;
  /** What the server said, already redacted and shortened. */
  detail?: string;
  availableModels?: string[];
  partialText?: string;
  retryAfterMs?: number;
}

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  /** For 'model-not-found': the models the server has, when it would tell us. */
  availableModels: string[] | undefined;
  /** Text of the reply that arrived before the failure (interrupted, timeout, aborted …). */
  partialText: string | undefined;
  /** For 'rate-limit': how long the server asked us to wait. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ProviderErrorKind, message: string, init: ProviderErrorInit = {}) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = init.status;
    this.detail = init.detail;
    this.availableModels = init.availableModels;
    this.partialText = init.partialText;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}

/** How a provider names itself and what it tells a user who cannot reach it. */
export interface ProviderLabel {
  /** "Ollama", "Anthropic", "the server at http://localhost:1234" … */
  name: string;
  /** Appended to connection errors: "Is Ollama running? Start it with `ollama serve`." */
  connectionHint: string;
  /** Whether the protocol uses an API key at all (Ollama does not). */
  usesKey: boolean;
  /** What to do about a missing model: "Pull it with `ollama pull x`". */
  missingModelHint?: (model: string) => string;
}

const MAX_DETAIL = 300;

/** Fragments of the key at least this long are hidden: shorter ones could match ordinary text. */
export const MIN_KEY_FRAGMENT = 12;

/** Whitespace and invisible characters a server may have put inside an echoed key (a wrapped
 * line, a JSON-escaped newline already decoded). */
const SPLITTER = /[\s\u200b-\u200d\u2060\ufeff]/;

/**
 * Removes the key from server text: the whole key, and any fragment of it at least
 * MIN_KEY_FRAGMENT characters long, even when whitespace splits it (an error body echoing the key
 * minus a character, or wrapped across lines). Each 12-character window of the text with the
 * splitters removed is looked up among the key's 12-character windows, so this is linear in the
 * text. A key shorter than that is hidden only whole.
 */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  const out = text.split(secret).join('***');
  if (secret.length < MIN_KEY_FRAGMENT) return out;
  const grams = new Set<string>();
  for (let i = 0; i + MIN_KEY_FRAGMENT <= secret.length; i++) grams.add(secret.slice(i, i + MIN_KEY_FRAGMENT));
  // The text without splitters, and where each of its characters is in `out`.
  const chars: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < out.length; i++) {
    const c = out[i] as string;
    if (SPLITTER.test(c)) continue;
    chars.push(c);
    at.push(i);
  }
  const hidden = new Uint8Array(out.length);
  let found = false;
  for (let i = 0; i + MIN_KEY_FRAGMENT <= chars.length; i++) {
    if (!grams.has(chars.slice(i, i + MIN_KEY_FRAGMENT).join(''))) continue;
    found = true;
    // The whole stretch of the original text, splitters inside it included.
    hidden.fill(1, at[i], (at[i + MIN_KEY_FRAGMENT - 1] as number) + 1);
  }
  if (!found) return out;
  let result = '';
  for (let i = 0; i < out.length; i++) {
    if (!hidden[i]) result += out[i] as string;
    else if (!hidden[i - 1]) result += '***';
  }
  return result;
}

export function shorten(text: string, max = MAX_DETAIL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export interface ServerErrorInfo {
  message: string;
  code?: string;
  type?: string;
}

/** Pulls the human message out of the error shapes the supported servers use: Ollama
 * `{error: "…"}`, OpenAI `{error: {message, code, type}}`, Anthropic `{type: "error", error:
 * {type, message}}`, FastAPI-style `{detail}` (vLLM) and a bare `{message}`. */
export function parseServerError(body: string): ServerErrorInfo {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { message: looksLikeHtml(body) ? summariseHtml(body) : body };
  }
  if (value === null || typeof value !== 'object') return { message: body };
  const obj = value as Record<string, unknown>;
  const err = obj.error;
  if (typeof err === 'string') return { message: err };
  if (err !== null && typeof err === 'object') {
    const e = err as Record<string, unknown>;
    const info: ServerErrorInfo = { message: typeof e.message === 'string' ? e.message : JSON.stringify(e) };
    if (typeof e.code === 'string') info.code = e.code;
    if (typeof e.type === 'string') info.type = e.type;
    return info;
  }
  if (typeof obj.detail === 'string') return { message: obj.detail };
  if (typeof obj.message === 'string') return { message: obj.message };
  return { message: body };
}

function looksLikeHtml(body: string): boolean {
  return /^\s*<(!doctype\s+html|html|head|body|title)\b/i.test(body) || /<\/html>\s*$/i.test(body);
}

/** An HTML error page (a proxy's, a CDN's) as its title only: its markup and scripts are no message. */
function summariseHtml(body: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const text = title
    ?.replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? `an HTML page titled "${shorten(text, 120)}"` : 'an HTML page';
}

// Wordings seen from OpenAI ("maximum context length", code context_length_exceeded), Anthropic
// ("prompt is too long"), vLLM, llama.cpp ("exceeds the available context size"), LM Studio,
// Groq and Ollama ("input length exceeds the context length").
const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|maximum context length|context (length|window|size) (exceeded|is exceeded)|exceeds? (the )?(available |maximum )?context|prompt is too long|too many (input )?tokens|reduce the length of the (messages|prompt)|input length .*exceed|greater than the context length|exceed_context_size/i;

export function looksLikeContextOverflow(info: ServerErrorInfo): boolean {
  return CONTEXT_OVERFLOW.test([info.code, info.type, info.message].filter(Boolean).join(' '));
}

const MODEL_NOT_FOUND =
  /model_not_found|model .*(not found|does not exist|is not available|unknown)|unknown model|no such model|invalid model|not_found_error.*model|(^| )model: /i;

export function looksLikeModelNotFound(info: ServerErrorInfo): boolean {
  return MODEL_NOT_FOUND.test([info.code, info.type, info.message].filter(Boolean).join(' '));
}

export interface HttpErrorContext {
  status: number;
  body: string;
  label: ProviderLabel;
  model: string;
  apiKey: string | undefined;
  /** Parsed `retry-after` (and friends), when the server sent one. */
  retryAfterMs: number | undefined;
}

export interface ClassifiedError {
  error: ProviderError;
  /** Worth another attempt after a pause (429, 5xx, 408). */
  retryable: boolean;
}

/** Turns a non-2xx response into a ProviderError with a message that says what to do. */
export function classifyHttpError(ctx: HttpErrorContext): ClassifiedError {
  const info = parseServerError(ctx.body);
  const detail = shorten(redact(info.message, ctx.apiKey)) || `HTTP ${ctx.status}`;
  const init: ProviderErrorInit = { status: ctx.status, detail };
  if (ctx.retryAfterMs !== undefined) init.retryAfterMs = ctx.retryAfterMs;
  const name = ctx.label.name;
  const fail = (kind: ProviderErrorKind, message: string, retryable = false): ClassifiedError => ({
    error: new ProviderError(kind, message, init),
    retryable,
  });
  const { status } = ctx;

  // Checked first: some local servers answer an overflowing prompt with 500 rather than 400.
  if (status === 413 || (status >= 400 && looksLikeContextOverflow(info))) {
    return fail('context-overflow', `The conversation is too long for ${ctx.model}'s context window (${name} said: ${detail}).`);
  }
  if (status === 401 || status === 403) {
    if (!ctx.label.usesKey) {
      return fail('auth', `${name} refused the request (HTTP ${status}): ${detail}. Check that nothing between you and the server requires a login.`);
    }
    if (!ctx.apiKey) return fail('auth', `${name} needs an API key (HTTP ${status}). Add one in the plugin settings.`);
    return fail(
      'auth',
      status === 401
        ? `${name} rejected the API key (HTTP 401): ${detail}. Check the key in the plugin settings.`
        : `${name} refused access with this API key (HTTP 403): ${detail}. The key may lack access to ${ctx.model}.`,
    );
  }
  if (status === 404 || looksLikeModelNotFound(info)) {
    // The provider refines this with the server's model list (see resolveNotFound).
    return fail(looksLikeModelNotFound(info) ? 'model-not-found' : 'not-found', `${name} does not know the model "${ctx.model}" (${detail}).`);
  }
  if (status === 429) {
    if (/insufficient_quota|quota|billing|credit/i.test(`${info.code ?? ''} ${info.message}`)) {
      return fail('rate-limit', `${name} says the account is out of quota or credit: ${detail}. Check the plan or billing.`);
    }
    const wait = ctx.retryAfterMs !== undefined ? ` Try again in ${Math.ceil(ctx.retryAfterMs / 1000)} s.` : ' Wait a moment and try again.';
    return fail('rate-limit', `${name} is rate-limiting requests (HTTP 429): ${detail}.${wait}`, true);
  }
  if (status === 408) return fail('timeout', `${name} timed out handling the request (HTTP 408).`, true);
  if (status >= 500) {
    const overloaded = status === 529 || /overloaded/i.test(`${info.type ?? ''} ${info.message}`);
    return fail('server', `${name} ${overloaded ? 'is overloaded' : 'had a server error'} (HTTP ${status}): ${detail}. Try again in a moment.`, true);
  }
  return fail('bad-request', `${name} rejected the request (HTTP ${status}): ${detail}.`);
}

/** Turns an error object a server sent inside a 200 stream (OpenRouter `{error}`, Anthropic
 * `event: error`, Ollama `{"error": …}`) into a ProviderError. */
export function classifyStreamError(info: ServerErrorInfo, label: ProviderLabel, model: string, apiKey: string | undefined): ProviderError {
  const detail = shorten(redact(info.message, apiKey));
  if (looksLikeContextOverflow(info)) {
    return new ProviderError('context-overflow', `The conversation is too long for ${model}'s context window (${label.name} said: ${detail}).`, { detail });
  }
  if (/overloaded|rate|capacity/i.test(`${info.type ?? ''} ${info.code ?? ''}`)) {
    return new ProviderError('server', `${label.name} is overloaded and stopped the reply: ${detail}. Try again in a moment.`, { detail });
  }
  return new ProviderError('server', `${label.name} reported an error during the reply: ${detail}.`, { detail });
}

/** Refines a 404 / unknown-model error with what the server offers. A 404 for a model the server
 * does list means the URL is wrong, not the model. */
export function resolveNotFound(error: ProviderError, label: ProviderLabel, model: string, available: string[] | null): ProviderError {
  const init: ProviderErrorInit = {};
  if (error.status !== undefined) init.status = error.status;
  if (error.detail !== undefined) init.detail = error.detail;
  if (available === null) {
    if (error.kind === 'model-not-found') return error;
    return new ProviderError('not-found', `${label.name} answered 404 Not found (${error.detail ?? 'no detail'}). Check the base URL in the plugin settings.`, init);
  }
  if (available.includes(model)) {
    return new ProviderError('not-found', `${label.name} has the model "${model}" but answered 404 for the chat endpoint. Check the base URL in the plugin settings.`, init);
  }
  init.availableModels = available;
  const shown = available.slice(0, 12).join(', ');
  const more = available.length > 12 ? ` and ${available.length - 12} more` : '';
  const list = available.length ? `Available: ${shown}${more}.` : 'The server lists no models.';
  const hint = label.missingModelHint?.(model) ?? 'Pick one in the plugin settings.';
  return new ProviderError('model-not-found', `${label.name} has no model "${model}". ${list} ${hint}`, init);
}
