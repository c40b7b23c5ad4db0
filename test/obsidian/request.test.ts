// requestUrl against a real HTTP server on 127.0.0.1.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, requestUrl } from './index';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base = '';
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/json') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Trace': 'abc' });
        res.end(JSON.stringify({ ok: true, text: 'héllo' }));
      } else if (req.url === '/echo') {
        res.writeHead(201, { 'Content-Type': 'text/plain' });
        res.end(`${req.method ?? ''} ${body}`);
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('not here');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('requestUrl', () => {
  it('GETs and buffers the whole response: status, lowercase headers, text, json and bytes', async () => {
    const response = await requestUrl(`${base}/json`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-trace']).toBe('abc');
    expect(response.json).toEqual({ ok: true, text: 'héllo' });
    expect(response.text).toBe('{"ok":true,"text":"héllo"}');
    expect(response.arrayBuffer.byteLength).toBe(27);
  });

  it('offers json and text straight from the returned promise', async () => {
    await expect(requestUrl(`${base}/json`).json).resolves.toEqual({ ok: true, text: 'héllo' });
    await expect(requestUrl({ url: `${base}/json` }).text).resolves.toContain('"ok":true');
    await expect(requestUrl(`${base}/json`).arrayBuffer).resolves.toBeInstanceOf(ArrayBuffer);
  });

  it('sends the method, headers, content type and body', async () => {
    const response = await requestUrl({
      url: `${base}/echo`,
      method: 'POST',
      contentType: 'application/json',
      headers: { Authorization: 'Bearer t0k3n' },
      body: JSON.stringify({ prompt: 'Hi' }),
    });
    expect(response.status).toBe(201);
    expect(response.text).toBe('POST {"prompt":"Hi"}');
    const last = received[received.length - 1];
    expect(last?.headers['content-type']).toBe('application/json');
    expect(last?.headers.authorization).toBe('Bearer t0k3n');
  });

  it('sends an ArrayBuffer body as bytes', async () => {
    const bytes = new TextEncoder().encode('raw').buffer;
    expect((await requestUrl({ url: `${base}/echo`, method: 'PUT', body: bytes })).text).toBe('PUT raw');
  });

  it('rejects a status of 400 or more with the status on the error', async () => {
    await expect(requestUrl(`${base}/missing`)).rejects.toMatchObject({ message: 'Request failed, status 404', status: 404 });
  });

  it('returns the failed response when throw is false, with json failing only when read', async () => {
    const response = await requestUrl({ url: `${base}/missing`, throw: false });
    expect(response.status).toBe(404);
    expect(response.text).toBe('not here');
    expect(() => response.json as unknown).toThrow(SyntaxError);
  });

  it('returns the text for request()', async () => {
    expect(await request({ url: `${base}/echo`, method: 'POST', body: 'x' })).toBe('POST x');
  });
});
