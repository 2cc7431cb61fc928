import { isAllocatedTerminal } from '@quiver/wiring';
import { launchEnvironment } from '../launch/launch-environment.js';

/** The variable the terminal tool sets in every command it runs (see tools-terminal's process tree). */
const TERMINAL_RUN_MARKER = 'QUIVER_TERMINAL_RUN';

/**
 * True when a command of Quiver's own terminal tool started this process: its marker variable is
 * set, or stdin is a terminal Quiver allocated (the marker can be cleared with `env -i`; the
 * terminal cannot be disowned). Scripts without a terminal are not refused by this.
 */
export function ranByQuiverTools(): boolean {
  return (
    isAllocatedTerminal(0) ||
    launchEnvironment()[TERMINAL_RUN_MARKER] !== undefined ||
    process.env[TERMINAL_RUN_MARKER] !== undefined
  );
}

/**
 * Why no person can be asked on this process's terminal, or undefined when one can. A terminal
 * that Quiver allocated for a command of its own tools (`terminal_start` with `pty: true`) does
 * not count: there the model types the answers. It is recognised by the terminal device itself,
 * in Quiver's list of the terminals it allocated, not by an environment variable (a command can
 * clear those) or by how Quiver was started (`pnpm quiver`, `node …/bin.js`).
 */
export function noPersonTerminal(): string | undefined {
  if (!process.stdin.isTTY) return 'stdin is not a terminal';
  if (isAllocatedTerminal(0))
    return 'stdin is a terminal Quiver allocated for a command of its own tools, where the model, not a person, types the answers';
  return undefined;
}
