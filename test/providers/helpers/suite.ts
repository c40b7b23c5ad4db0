// The set-up every provider suite shares: a fresh loopback server for each test. Kept apart from
// server.ts, which the UI harness (harness/server.ts) also imports outside the test runner.
import { afterEach, beforeEach } from 'vitest';
import { ScriptedServer } from './server';

/** Starts a server before each test of the calling suite (or file) and closes it after; `use`
 * receives each new one: `let server!: ScriptedServer; serverPerTest((s) => (server = s));`. */
export function serverPerTest(use: (server: ScriptedServer) => void): void {
  let server: ScriptedServer | undefined;
  beforeEach(async () => {
    server = await ScriptedServer.start();
    use(server);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
}
