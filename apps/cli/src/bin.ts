#!/usr/bin/env node
import { launchEnvironment } from './launch/launch-environment.js';
import { mayRunTools } from './launch/tool-running-commands.js';
import { runCli } from './run-cli.js';

// A reader that stops early (`quiver log | head`) ends the command quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});

// Before anything else runs: commands that run tools hold the environment in memory only.
const launch = mayRunTools(process.argv)
  ? (await import('./launch/environment-handoff.js')).keepSecretsInMemory()
  : ({ role: 'run' } as const);
if (launch.role === 'failed') {
  process.stderr.write(`quiver: ${launch.message}\n`);
  process.exitCode = 1;
} else {
  const { startTelemetry } = await import('./launch/telemetry.js');
  const stopTelemetry = await startTelemetry(launchEnvironment());
  const code = await runCli(process.argv);
  // Spans still buffered are sent before the process ends.
  await stopTelemetry?.().catch(() => {});
  process.exitCode = code;
  // Output to a pipe is written asynchronously: a reader slower than us (a loaded machine, a
  // large `--json`) must get all of it before the exit below can cut it short.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  // The command is done and its output written: end now. Plugins may still hold handles (an MCP
  // child's pipe, a port, a timer) that would keep the process alive or make it linger.
  process.exit(code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
