import { isAllocatedTerminal } from '@quiver/wiring';

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
