import path from 'node:path';

/**
 * How the oracle attributes what a program's own process tree does.
 *
 * - `transparent`: the analyzer claims to know everything this program runs and writes (shells,
 *   wrappers it unwraps, read-only programs it allows). Every exec and write below it must have
 *   been reported: a git that runs an fsmonitor hook, a `find` that runs `-exec`, an `ls` that
 *   is really a script are findings.
 * - `watched`: runs code the workspace controls in a known shape; only the listed programs may
 *   run below it (`npm run` starts node and `sh -c <script>`; a swapped script shell is a finding).
 * - `opaque`: every other program. The rule that allowed it allowed whatever it does, so what it
 *   runs and writes is attributed to it; only deny rules still apply to its writes.
 */
export type ProgramRole = 'transparent' | 'watched' | 'opaque';

const TRANSPARENT = new Set([
  // shells and the wrappers the analyzer unwraps
  'bash',
  'sh',
  'dash',
  'zsh',
  'ksh',
  'rbash',
  'env',
  'nice',
  'ionice',
  'taskset',
  'chrt',
  'stdbuf',
  'setsid',
  'flock',
  'timeout',
  'nohup',
  'time',
  'xargs',
  'sudo',
  'watch',
  'unbuffer',
  'script',
  'su',
  'runuser',
  'chroot',
  'busybox',
  // programs allowed as read-only
  'git',
  'ls',
  'cat',
  'echo',
  'printf',
  'pwd',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'find',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'cmp',
  'stat',
  'file',
  'du',
  'df',
  'which',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'date',
  'id',
  'whoami',
  'uname',
  'true',
  'false',
  'test',
  '[',
  'tree',
  'less',
  'more',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'jq',
  'column',
  'nl',
  'tac',
  'rev',
  'od',
  'hexdump',
  'xxd',
  'md5sum',
  'sha256sum',
  'seq',
  'yes',
  'sleep',
  'man',
]);

/** Programs a watched program may start below it. */
const WATCHED: Record<string, ReadonlySet<string>> = {
  npm: new Set(['npm', 'node', 'sh', 'env']),
};

/**
 * git subcommands that change repositories or talk to remotes: they run hooks, helpers and
 * transports by design, so what they run is theirs. Every other subcommand (the read ones,
 * aliases, unknown names) is taken to run nothing.
 */
const GIT_ACTIONS = new Set([
  'add',
  'am',
  'apply',
  'bisect',
  'checkout',
  'cherry-pick',
  'clean',
  'clone',
  'commit',
  'fetch',
  'gc',
  'init',
  'maintenance',
  'merge',
  'mv',
  'pull',
  'push',
  'rebase',
  'remote',
  'reset',
  'restore',
  'revert',
  'rm',
  'send-email',
  'stash',
  'submodule',
  'switch',
  'tag',
  'worktree',
]);

/** git's global options that take the next word as their value. */
const GIT_OPTIONS_WITH_VALUE = new Set([
  '-c',
  '-C',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
]);

function gitSubcommand(argv: readonly string[]): string | undefined {
  for (let index = 1; index < argv.length; index++) {
    const word = argv[index] as string;
    if (GIT_OPTIONS_WITH_VALUE.has(word)) index++;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

export function programRole(name: string, argv: readonly string[] = []): ProgramRole {
  if (Object.hasOwn(WATCHED, name)) return 'watched';
  if (name === 'git') return GIT_ACTIONS.has(gitSubcommand(argv) ?? '') ? 'opaque' : 'transparent';
  return TRANSPARENT.has(name) ? 'transparent' : 'opaque';
}

export function watchedMayRun(owner: string, name: string): boolean {
  return WATCHED[owner]?.has(name) ?? false;
}

/** Directories a bare command name may resolve to; anything else means PATH was redirected. */
export const STANDARD_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export function onStandardPath(file: string): boolean {
  return STANDARD_PATH.includes(path.posix.dirname(file));
}

const DEVICE_TARGETS = /^\/(dev\/(null|zero|full|tty|stdout|stderr|fd\/\d+)|proc\/(self|\d+)\/fd\/\d+)$/;

/** Writes that change nothing anybody could read back. */
export function isHarmlessWrite(file: string): boolean {
  return DEVICE_TARGETS.test(file);
}

/**
 * Writes a program makes as part of doing what it was allowed to do: git refreshes the index
 * of the repository it reads, bash keeps here-document bodies in temporary files, npm logs
 * under `.npm/`. Anything else a transparent program writes must have been reported.
 */
export function isInternalWrite(program: string, file: string): boolean {
  if (program === 'git') return /\/\.git\/(index|index\.lock)$/.test(file);
  if (program === 'shell' || program === 'bash' || program === 'sh')
    return /^\/tmp\/sh-thd[.-]?\w*$/.test(file);
  if (program === 'npm' || program === 'node') return /\/\.npm(\/|$)/.test(file);
  return false;
}

/**
 * What git itself keeps in a repository's git directory while it does its own job (objects, refs
 * and their logs, the index, `HEAD` and the other state files a stash, merge, rebase or commit
 * leaves, and their `.lock` files): the protected list's route for changing a git directory
 * ("change it with git itself"). Not its configuration, hooks, `info/` or the files that name other
 * git directories (`commondir`, `gitdir`, `objects/info/alternates`): git writing those is judged
 * like any other write, since they decide what git runs or reads next.
 */
const GIT_STATE_FILE =
  /\/\.git\/(objects\/(?!info\/)[^/]+(\/[^/]+)?|refs\/.+|logs\/.+|index(\.[\w.-]+)?|packed-refs(\.lock)?|[A-Z_]*HEAD(\.lock)?|MERGE_(MSG|MODE|RR)|AUTO_MERGE|SQUASH_MSG|COMMIT_EDITMSG|(rr-cache|sequencer|rebase-merge|rebase-apply)(\/.*)?|BISECT_[A-Z_]+)$/;

export function isGitStateWrite(file: string): boolean {
  return GIT_STATE_FILE.test(file);
}

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn']);

/**
 * Whether an exec makes the process a package manager itself (npm, pnpm, yarn, or node running
 * one's own script), as opposed to code it starts: a lifecycle script's shell, `node install.js`,
 * an `npm exec` binary.
 */
export function isPackageManagerItself(name: string, argv: readonly string[]): boolean {
  if (PACKAGE_MANAGERS.has(name)) return true;
  if (name !== 'node' && name !== 'nodejs') return false;
  const script = argv.slice(1).find((word) => !word.startsWith('-'));
  if (script === undefined) return false;
  const base = path.posix.basename(script).replace(/\.(c|m)?js$/, '');
  return (
    PACKAGE_MANAGERS.has(base.replace(/-cli$/, '')) || /\/node_modules\/(npm|pnpm|yarn)\/bin\//.test(script)
  );
}

/**
 * A package manager's own process changing `node_modules`: the protected list's route for code
 * there ("install packages with the package manager"; the sandbox leaves `node_modules`
 * writable for it). Only the package manager's own process gets this pass; a script or binary
 * it starts writing there is judged like any other process.
 */
export function isPackageInstallWrite(file: string): boolean {
  return /\/node_modules(\/|$)/.test(file);
}

/**
 * git looks for an unknown subcommand `x` as a program `git-x` on its exec path and PATH; an
 * attempt that found nothing ran nothing. One that succeeds is judged like any other exec.
 */
export function isFailedLookup(owner: string, file: string, ok: boolean): boolean {
  return owner === 'git' && !ok && file.includes('/git-');
}
