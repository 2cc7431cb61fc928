import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { minimalEnvironment } from './child-environment.js';
import { emptyHooksDirectory, gitSafetyEnvironment } from './git-safety.js';

/** Where worktrees go, inside the workspace root, so that the agent's tools may work in them. */
export const WORKTREES_DIRECTORY = '.worktrees';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const BRANCH = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$/;

export interface WorktreeOptions {
  /** The workspace root holding the repository (a real path). */
  root: string;
  /** Quiver's data directory: the empty hooks directory git is pointed at lives beside its spill files. */
  dataDir: string;
  /** Where the minimal environment is picked from; defaults to this process's environment. */
  sourceEnv?: Readonly<Record<string, string | undefined>>;
}

export interface Worktree {
  name: string;
  path: string;
  branch: string;
}

function runGit(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => reject(error));
    child.once('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(output.trim() || `git ${args[0]} exited with code ${code}`)),
    );
  });
}

/**
 * Worktree helpers for a harness that offers worktrees (`harnessTools({ worktrees })`). git writes
 * under `.git` here, so it runs with the same hardening as every git the terminal starts: no
 * hooks (`git worktree add` would run post-checkout), no fsmonitor, no bare repository found by
 * chance, no `ext::` transport, and an environment without secrets. Names and branches are
 * checked before git sees them; worktrees live in `<root>/.worktrees/<name>`.
 */
export function createWorktreeHelpers(options: WorktreeOptions) {
  const root = realpathSync(options.root);
  const environment = async () =>
    gitSafetyEnvironment(
      minimalEnvironment(options.sourceEnv ?? process.env),
      await emptyHooksDirectory(path.join(options.dataDir, 'terminal')),
    );
  const locate = (name: string) => {
    if (!NAME.test(name) || name.includes('..'))
      throw new Error(
        `Worktree name "${name}" is not allowed: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
      );
    return path.join(root, WORKTREES_DIRECTORY, name);
  };
  return {
    async create(args: { name: string; branch?: string }, signal: AbortSignal): Promise<Worktree> {
      const where = locate(args.name);
      const branch = args.branch ?? `worktree/${args.name}`;
      if (!BRANCH.test(branch) || branch.includes('..') || branch.endsWith('/') || branch.endsWith('.lock'))
        throw new Error(
          `Branch name "${branch}" is not allowed: use letters, digits, ".", "_", "-" and "/".`,
        );
      await runGit(['worktree', 'add', '-b', branch, '--', where], root, await environment(), signal);
      return { name: args.name, path: where, branch };
    },
    async remove(args: { name: string; force?: boolean }, signal: AbortSignal): Promise<void> {
      const where = locate(args.name);
      await runGit(
        ['worktree', 'remove', ...(args.force ? ['--force'] : []), '--', where],
        root,
        await environment(),
        signal,
      );
    },
  };
}
