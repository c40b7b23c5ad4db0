// The harness server (Node): serves, on 127.0.0.1, the page that hosts the built plugin (main.js)
// in the obsidian test runtime bundled for the browser, the plugin's styles.css, the demo vault's
// notes, and a loopback Ollama endpoint under /ollama.
//
// /ollama/* is proxied to the providers' ScriptedServer (test/providers/helpers/server.ts): what a
// test queued with `script()` is played first; with nothing queued, the demo model answers
// (harness/replies.ts). Every request the plugin made is recorded there. With `upstream` set
// (a real Ollama), /ollama/* goes there instead — same origin for the page, so no CORS set-up.
import { build } from 'esbuild';
import { readFile, readdir } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RecordedRequest, type Scripted, ScriptedServer } from '../test/providers/helpers/server';
import { demoResponse } from './replies';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));

export interface HarnessOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** A real Ollama (e.g. http://localhost:11434) to proxy /ollama/* to instead of the scripted server. */
  upstream?: string;
  /** Folder of sample notes; default: the repository's demo-vault/. */
  vaultDir?: string;
}

export interface Harness {
  /** The page: open it in a browser. Query parameters: see harness/README.md. */
  url: string;
  /** The provider base URL the page configures the plugin with (Ollama protocol). */
  providerUrl: string;
  /** Queues responses for `METHOD /api/...` (played in order, before the demo model answers again). */
  script(method: string, path: string, ...responses: Scripted[]): void;
  /** Requests the plugin sent to the provider, oldest first. */
  requests(path?: string): RecordedRequest[];
  /** The JSON bodies of the /api/chat requests, oldest first. */
  chatBodies(): ChatRequestBody[];
  close(): Promise<void>;
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  options?: { num_ctx?: number };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** The page's script: harness/page.ts with the obsidian runtime, bundled for the browser. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [join(HERE, 'page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error('esbuild produced no output for harness/page.ts');
  return out.text;
}

/** Every Markdown file under `dir`, by vault path. */
async function readVault(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full).split(sep).join('/');
    if (path.startsWith('.')) continue;
    files[path] = await readFile(full, 'utf8');
  }
  return files;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Forwards the request to `target`, streaming the response back; if the browser leaves (Stop),
 * the upstream request is torn down too, so the provider sees the client go. */
function forward(req: IncomingMessage, body: Buffer, res: ServerResponse, target: URL): void {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = { ...req.headers, host: target.host };
  delete headers.origin;
  delete headers.referer;
  const upstream = send(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    res.flushHeaders();
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`harness proxy: ${error.message}`);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.end(body);
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const [page, html, css, vault] = await Promise.all([
    bundlePage(),
    readFile(join(HERE, 'page.html'), 'utf8'),
    readFile(join(HERE, 'page.css'), 'utf8'),
    readVault(options.vaultDir ?? join(ROOT, 'demo-vault')),
  ]);
  const scripted = await ScriptedServer.start();
  const queued = new Map<string, number>();
  const sockets = new Set<Socket>();
  const upstream = options.upstream ? new URL(options.upstream.replace(/\/+$/, '') + '/') : null;

  const serveFile = async (res: ServerResponse, path: string, type: string): Promise<void> => {
    try {
      const text = await readFile(path);
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(text);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`${relative(ROOT, path)} is missing: run \`npm run build\` first.`);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path.startsWith('/ollama/')) {
      const body = await readBody(req);
      const apiPath = path.slice('/ollama'.length);
      if (upstream) {
        forward(req, body, res, new URL(apiPath.slice(1) + url.search, upstream));
        return;
      }
      const key = `${req.method ?? 'GET'} ${apiPath}`;
      const pending = queued.get(key) ?? 0;
      if (pending > 0) queued.set(key, pending - 1);
      else {
        const demo = demoResponse(req.method ?? 'GET', apiPath, body.toString('utf8'));
        if (demo) scripted.on(req.method ?? 'GET', apiPath, demo);
      }
      forward(req, body, res, new URL(apiPath + url.search, scripted.url));
      return;
    }
    const send = (status: number, type: string, text: string): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(text);
    };
    switch (path) {
      case '/':
      case '/index.html':
        return send(200, TYPES['.html'] ?? '', html);
      case '/harness.js':
        return send(200, TYPES['.js'] ?? '', page);
      case '/harness.css':
        return send(200, TYPES['.css'] ?? '', css);
      case '/vault.json':
        return send(200, TYPES['.json'] ?? '', JSON.stringify(vault));
      case '/main.js':
        return serveFile(res, join(ROOT, 'main.js'), TYPES['.js'] ?? '');
      case '/styles.css':
        return serveFile(res, join(ROOT, 'styles.css'), TYPES['.css'] ?? '');
      case '/manifest.json':
        return serveFile(res, join(ROOT, 'manifest.json'), TYPES['.json'] ?? '');
      case '/favicon.ico':
        res.writeHead(204);
        res.end();
        return;
      default:
        return send(404, 'text/plain', `not found: ${path}`);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    url: `${base}/`,
    providerUrl: `${base}/ollama`,
    script(method, path, ...responses) {
      const key = `${method} ${path}`;
      queued.set(key, (queued.get(key) ?? 0) + responses.length);
      scripted.on(method, path, ...responses);
    },
    requests: (path) => (path ? scripted.to(path) : [...scripted.requests]),
    chatBodies: () => scripted.to('/api/chat').map((r) => JSON.parse(r.body) as ChatRequestBody),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await scripted.close();
    },
  };
}
