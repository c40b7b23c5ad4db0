// `npm run harness`: builds main.js (the npm script does) and serves the harness page until Ctrl+C.
//   --port N          listen on 127.0.0.1:N (default: a free port; HARNESS_PORT works too)
//   --ollama URL      proxy the page's provider to a real Ollama (e.g. http://localhost:11434)
import { parseArgs } from 'node:util';
import { startHarness } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.HARNESS_PORT ?? '0' },
    ollama: { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}"`);
  process.exit(2);
}

const harness = await startHarness({ port, ...(values.ollama ? { upstream: values.ollama } : {}) });
console.log(`Compact Chat harness: ${harness.url}`);
if (values.ollama) {
  console.log(`  provider: ${values.ollama} (proxied at ${harness.providerUrl}); choose a model it has: ${harness.url}?model=llama3.1:8b`);
} else {
  console.log(`  provider: the scripted demo model at ${harness.providerUrl}`);
  console.log(`  a real Ollama: ${harness.url}?ollama=http://localhost:11434&model=llama3.1:8b  (or restart with --ollama http://localhost:11434)`);
}
console.log('  dark theme: ?theme=dark · Ctrl+C stops');

const stop = (): void => {
  void harness.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
