import { runCli } from '../run-cli.js';
import { launchEnvironment } from './launch-environment.js';
import { mayRunTools } from './tool-running-commands.js';

/**
 * Runs one command line and ends the process. `bin.js` calls it, or the same code bundled as
 * CommonJS (`dist/cold/quiver.cjs`, see code-cache.ts) so that V8 can cache its compilation;
 * `beforeExit` runs once the command is done and its output written.
 */
export async function main(argv: string[], beforeExit?: () => void): Promise<void> {
  // Before anything else runs: commands that run tools hold the environment in memory only.
  const launch = mayRunTools(argv)
    ? (await import('./environment-handoff.js')).keepSecretsInMemory()
    : ({ role: 'run' } as const);
  if (launch.role === 'failed') {
    process.stderr.write(`quiver: ${launch.message}\n`);
    process.exitCode = 1;
    return;
  }
  const { startTelemetry } = await import('./telemetry.js');
  const stopTelemetry = await startTelemetry(launchEnvironment());
  const code = await runCli(argv);
  // Spans still buffered are sent before the process ends.
  await stopTelemetry?.().catch(() => {});
  process.exitCode = code;
  // Output to a pipe is written asynchronously: a reader slower than us (a loaded machine, a
  // large `--json`) must get all of it before the exit below can cut it short.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  beforeExit?.();
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
