#!/usr/bin/env node
import { startWithoutSecrets } from './launch/environment-handoff.js';

const launch = startWithoutSecrets(process.argv);
if (launch.role === 'launcher') {
  process.exitCode = await launch.exited;
} else if (launch.role === 'failed') {
  process.stderr.write(`quiver: ${launch.message}\n`);
  process.exitCode = 1;
} else {
  const { runCli } = await import('./program.js');
  const { startTelemetry } = await import('./launch/telemetry.js');
  const { launchEnvironment } = await import('./launch/environment-handoff.js');
  const stopTelemetry = await startTelemetry(launchEnvironment());
  const code = await runCli(process.argv);
  // Spans still buffered are sent before the process ends.
  await stopTelemetry?.().catch(() => {});
  process.exitCode = code;
  // Output to a pipe is written asynchronously: a reader slower than us (a loaded machine, a
  // large `--json`) must get all of it before the exit below can cut it short.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  // Plugins may hold handles (MCP children, timers) after the command is done.
  setTimeout(() => process.exit(code), 50).unref();
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
