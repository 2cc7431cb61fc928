import { readFileSync } from 'node:fs';
import { consoleRuntimeDirectory } from '@quiver/permissions';
import { isAllocatedTerminal } from '@quiver/wiring';
import { consoleRecordOf } from '../console/runtime-records.js';
import { launchEnvironment } from '../launch/launch-environment.js';

/** The variable the terminal tool sets in every command it runs (see tools-terminal's process tree). */
const TERMINAL_RUN_MARKER = 'QUIVER_TERMINAL_RUN';

/**
 * True when this process carries the marks of a command of Quiver's own terminal tool: its marker
 * variable is set, or stdin is a terminal Quiver allocated (the marker can be cleared with
 * `env -i`; the terminal cannot be disowned).
 */
export function markedByQuiverTools(): boolean {
  return (
    isAllocatedTerminal(0) ||
    launchEnvironment()[TERMINAL_RUN_MARKER] !== undefined ||
    process.env[TERMINAL_RUN_MARKER] !== undefined
  );
}

/** This process's ancestors (Linux: from /proc; elsewhere none are known). */
function ancestorPids(): Set<number> {
  const ancestors = new Set<number>();
  let pid = process.ppid;
  while (pid > 1 && !ancestors.has(pid)) {
    ancestors.add(pid);
    try {
      // The parent is the 4th field after the command name, which may itself hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return ancestors;
}

/**
 * The ancestor of this process that runs a Quiver server with a console, by the record it wrote
 * in the runtime directory of its own environment (a tool command's environment may name another
 * runtime directory, or none). A command of the model's runs below the server whose tools started
 * it, whatever it did to its environment (`env -u`, `env -i`) or terminal. A record counts only
 * when that very process wrote it: one left by a killed console names a pid that another process,
 * a person's shell say, may have since.
 */
export function consoleServerAncestor(): number | undefined {
  for (const pid of ancestorPids()) {
    let environment: Record<string, string>;
    try {
      environment = Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter((entry) => entry.includes('='))
          .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
      );
    } catch {
      continue;
    }
    if (consoleRecordOf(pid, consoleRuntimeDirectory(environment)) !== undefined) return pid;
  }
  return undefined;
}

/**
 * True when a command of Quiver's own terminal tool started this process: it carries the tool's
 * marks, or it runs below a Quiver server with a console. Scripts without a terminal are not
 * refused by this.
 */
export function ranByQuiverTools(): boolean {
  return markedByQuiverTools() || consoleServerAncestor() !== undefined;
}

/**
 * Why no person can be asked on this process's terminal, or undefined when one can. A terminal
 * that Quiver allocated for a command of its own tools (`terminal_start` with `pty: true`) does
 * not count: there the model types the answers. It is recognised by the terminal device itself,
 * in Quiver's list of the terminals it allocated, not by an environment variable (a command can
 * clear those) or by how Quiver was started (`pnpm quiver`, `node …/bin.js`). Nor does a terminal
 * of a process below a Quiver server with a console: that server's tools started it.
 */
export function noPersonTerminal(): string | undefined {
  if (!process.stdin.isTTY) return 'stdin is not a terminal';
  if (isAllocatedTerminal(0))
    return 'stdin is a terminal Quiver allocated for a command of its own tools, where the model, not a person, types the answers';
  const above = consoleServerAncestor();
  if (above !== undefined)
    return `this process runs inside a Quiver server with a console (pid ${above}), as a command of its tools does, so the model, not a person, would answer`;
  return undefined;
}
