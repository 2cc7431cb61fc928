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

export function programRole(name: string): ProgramRole {
  if (Object.hasOwn(WATCHED, name)) return 'watched';
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
