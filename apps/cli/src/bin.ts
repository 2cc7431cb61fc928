#!/usr/bin/env node
import { runFromCodeCache, usesCodeCache } from './launch/code-cache.js';

// A reader that stops early (`quiver log | head`) ends the command quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});

// `call` and `tools` run from a CommonJS bundle whose compiled code V8 caches (code-cache.ts);
// everything else, and those two whenever the bundle cannot be used, from the ES modules.
if (!(usesCodeCache(process.argv, process.env) && (await runFromCodeCache(process.argv, process.env)))) {
  const { main } = await import('./launch/main.js');
  await main(process.argv);
}
