// A real HTTP server on 127.0.0.1 (random port) that answers from scripted responses, writes them
// chunk by chunk with delays, and records every request it received — including whether the
// client closed the connection before the response was finished.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  /** Written one by one, `delayMs` apart. */
  chunks?: string[];
  delayMs?: number;
  /** After the chunks, destroy the socket instead of ending the response (a reply cut off). */
  breakAfter?: boolean;
  /** After the chunks, keep the response open until the client goes away. */
  holdOpen?: boolean;
  /** Never send headers (a server that accepted the connection and hung). */
  hang?: boolean;
  /** Destroy the connection before any header (a reset after the request arrived). */
  reset?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Resolves when the connection closes; `true` if the client left before the response ended. */
  closed: Promise<boolean>;
}

export interface ServerOptions {
  /** Answer CORS preflights and add Access-Control-Allow-Origin, as a CORS-enabled server does. */
  cors?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  readonly preflights: RecordedRequest[] = [];
  private readonly routes = new Map<string, Scripted[]>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(options: ServerOptions = {}): Promise<ScriptedServer> {
    let instance: ScriptedServer | undefined;
    const server = createServer((req, res) => {
      void instance?.handle(req.method ?? 'GET', req.url ?? '/', req.headers, req, res, options);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = new ScriptedServer(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      instance?.sockets.add(socket);
      socket.on('close', () => instance?.sockets.delete(socket));
    });
    return instance;
  }

  /** Queues responses for `METHOD /path` (query ignored), used in order. */
  on(method: string, path: string, ...responses: Scripted[]): this {
    const key = `${method} ${path}`;
    this.routes.set(key, [...(this.routes.get(key) ?? []), ...responses]);
    return this;
  }

  /** Requests to a path, in arrival order. */
  to(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** POSTs to a path (the chat requests, without the transport's keyless GET probes). */
  posts(path: string): RecordedRequest[] {
    return this.to(path).filter((r) => r.method === 'POST');
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    req: IncomingMessage,
    res: ServerResponse,
    options: ServerOptions,
  ): Promise<void> {
    let body = '';
    for await (const part of req) body += (part as Buffer).toString('utf8');
    const path = url.split('?')[0] ?? url;
    let resolveClosed: (early: boolean) => void = () => undefined;
    const closed = new Promise<boolean>((resolve) => (resolveClosed = resolve));
    res.on('close', () => resolveClosed(!res.writableFinished));
    const record: RecordedRequest = { method, path, headers, body, closed };
    const cors: Record<string, string> = options.cors ? { 'access-control-allow-origin': '*' } : {};

    if (method === 'OPTIONS') {
      this.preflights.push(record);
      res.writeHead(204, options.cors ? { ...cors, 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST' } : {});
      res.end();
      return;
    }
    this.requests.push(record);
    const script = this.routes.get(`${method} ${path}`)?.shift();
    if (!script) {
      res.writeHead(500, { 'content-type': 'text/plain', ...cors });
      res.end(`no scripted response for ${method} ${path}`);
      return;
    }
    if (script.hang) return;
    if (script.reset) {
      req.socket.destroy();
      return;
    }
    res.writeHead(script.status ?? 200, { ...cors, ...script.headers });
    res.flushHeaders();
    for (const chunk of script.chunks ?? []) {
      if (res.destroyed) return;
      if (script.delayMs) await sleep(script.delayMs);
      res.write(chunk);
    }
    if (script.breakAfter) {
      if (script.delayMs) await sleep(script.delayMs);
      res.socket?.destroy();
      return;
    }
    if (script.holdOpen) return;
    res.end();
  }
}

/** The JSON body a request carried. */
export function sentJson(request: RecordedRequest | undefined): Record<string, unknown> {
  if (!request) throw new Error('no such request was received');
  return JSON.parse(request.body) as Record<string, unknown>;
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Wire-format builders for scripted bodies.
export const ndjson = (...objects: unknown[]): string[] => objects.map((o) => `${JSON.stringify(o)}\n`);
export const sse = (...events: ({ event?: string; data: unknown } | string)[]): string[] =>
  events.map((e) => {
    if (typeof e === 'string') return `data: ${e}\n\n`;
    const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
    return `${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`;
  });

/** Re-cuts a body into pieces of `size` characters, so events and lines straddle chunk edges. */
export const rechunk = (chunks: string[], size: number): string[] => {
  const all = chunks.join('');
  const out: string[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
};
