// The executable: `dist/cli.js` is this file bundled (scripts/build-cli.mjs).
import { main } from './cli';

// A closed pipe (`compact-chat … | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: Error & { code?: string }) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), process);
