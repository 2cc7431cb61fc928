import type { Random } from './random.js';

/**
 * Building blocks of generated commands. Each construct hides a payload (a command that runs
 * or writes a canary) somewhere bash will run it, in a place where a parser may not look.
 */
export type Construct = (random: Random, payload: string) => string;

/** Commands the rule sets allow; generated commands start from them so that some are allowed. */
export const ALLOWED_BASES = [
  'git status',
  'git status --short',
  'git diff',
  'git diff --stat',
  'git log --oneline',
  'git log -1',
  'ls',
  'ls -la src',
  'echo hi',
  'echo',
  'pwd',
] as const;

/** npm takes a second a run under strace, twenty times a plain command: it is picked less often. */
export const NPM_BASES = ['npm run test', 'npm run test:unit'] as const;

export function allowedBase(random: Random): string {
  return random.chance(0.05) ? random.pick(NPM_BASES) : random.pick(ALLOWED_BASES);
}

export const SEPARATORS = [';', '&&', '||', '|', '&', '\n', ';;', '|&', ' ; ', '\r\n'];

/** Characters bash treats as part of a word where a parser may see a blank. */
export const FALSE_BLANKS = ['\\ ', '\\\t', '\v', '\f', '\r', '\\\v', '\\\f', '\\\r', '\u00a0', '\\\n'];

export const PARAMETER_OPERATORS = [
  '#',
  '##',
  '%',
  '%%',
  '/',
  '//',
  '/#',
  '/%',
  '^',
  '^^',
  ',',
  ',,',
  ':+',
  ':-',
  ':=',
  ':?',
  '+',
  '-',
  '=',
  '?',
  ':0:',
  '@Q',
  '@P',
  '@E',
];

const HEREDOC_DELIMITERS: Array<[string, string]> = [
  ['EOF', 'EOF'],
  ['"EOF"', 'EOF'],
  ["'EOF'", 'EOF'],
  ['E"OF"', 'EOF'],
  ["E'O'F", 'EOF'],
  ["$'EOF'", 'EOF'],
  ['\\EOF', 'EOF'],
  ['E\\OF', 'EOF'],
  ['"E"OF', 'EOF'],
  ["$'E\\x4fF'", 'EOF'],
  ['EO"F"', 'EOF'],
];

export const WRAPPERS = [
  'env',
  'env -i',
  'env -u HOME',
  'env -S',
  'env --split-string',
  'nice',
  'nice -n 5',
  'ionice -c3',
  'taskset 1',
  'taskset -c 0',
  'chrt -o 0',
  'stdbuf -o0',
  'setsid',
  'setsid -w',
  'flock /tmp/lock',
  'timeout 5',
  'timeout -s KILL 5',
  'nohup',
  'time',
  'time -p',
  'command',
  'command -p',
  'builtin',
  'exec',
  'exec -a ls',
  'xargs',
  'xargs -0',
  'xargs -I{}',
  'bash -c',
  'sh -c',
  'bash -lc',
  'bash -c --',
  'find . -maxdepth 0 -exec',
  'script -qc',
];

export const ENV_PREFIXES = [
  'HOME=evil-home',
  'XDG_CONFIG_HOME=evil-xdg',
  'GIT_CONFIG_GLOBAL=evil-home/.gitconfig',
  'GIT_CONFIG_SYSTEM=evil-home/.gitconfig GIT_CONFIG_NOSYSTEM=0',
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch canary-env'",
  "GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='touch canary-env'\"",
  'GIT_DIR=evil-repo/.git',
  'GIT_DIR=sub/.git GIT_WORK_TREE=sub',
  'GIT_WORK_TREE=evil-repo',
  "GIT_PAGER='touch canary-env'",
  "PAGER='touch canary-env'",
  'GIT_EXTERNAL_DIFF=touch',
  "GIT_SSH_COMMAND='touch canary-env'",
  'GIT_EXEC_PATH=bin',
  'GIT_INDEX_FILE=canary-index',
  'npm_config_script_shell=bin/npm-shell',
  'NPM_CONFIG_SCRIPT_SHELL=bin/npm-shell',
  'Npm_Config_Script_Shell=bin/npm-shell',
  'npm_config_SCRIPT_SHELL=bin/npm-shell',
  'npm_config_userconfig=evil-npmrc',
  'NPM_CONFIG_USERCONFIG=evil-npmrc',
  'npm_config_globalconfig=evil-npmrc',
  'npm_config_node_options=--require=./scripts/payload.sh',
  "NODE_OPTIONS='--require ./scripts/payload.sh'",
  'PATH=bin:/usr/bin:/bin',
  'PATH=./bin:$PATH',
  'BASH_ENV=scripts/payload.sh',
  'ENV=scripts/payload.sh',
  'LESSOPEN="|touch canary-env %s"',
  'LANG=C',
  'TZ=UTC',
  'LC_ALL=C',
  'NO_COLOR=1',
  'CI=1',
];

export const GIT_TRICKS = [
  "git -c core.fsmonitor='touch canary-git' status",
  "git -c alias.st='!touch canary-git' st",
  "git -c core.pager='touch canary-git' -p log",
  'git --exec-path=bin status',
  'git -C evil-repo status',
  'git -C sub status',
  'git --git-dir=evil-repo/.git status',
  'git --git-dir=sub/.git --work-tree=sub status',
  'git --work-tree=evil-repo status',
  'git log --output=canary-git',
  'git diff --output=canary-git',
  'git diff --ext-diff',
  'git -p status',
  'git --paginate diff',
  'git status --porcelain -z',
  'git log --format=%H -- README.md',
  'git diff -- src',
  'cd sub && git status',
  'cd evil-repo; git diff',
  'git -C evil-repo diff --ext-diff',
  'git diff --no-index README.md notes.txt --output=canary-git',
  'git status; git -c core.fsmonitor=true status',
  'npm run test --script-shell=bin/npm-shell',
  'npm --userconfig=evil-npmrc run test',
  'npm run test -- --watch',
  'npm run test:unit -- --reporter dot',
];

export function payload(random: Random, label: string): string {
  return random.pick([
    `touch canary-${label}`,
    `touch canary-${label}`,
    `/usr/bin/touch canary-${label}`,
    `>canary-${label}`,
    `echo x >canary-${label}`,
    'rm -f README.md',
    `mkdir canary-${label}`,
    `cp README.md canary-${label}`,
    './scripts/payload.sh',
    `ln -s README.md canary-${label}`,
  ]);
}

/** Disguises a program name so that its text is not `touch` (globs, quotes, escapes, variables). */
export const NAME_DISGUISES = [
  (name: string) => `/usr/bin/${name.slice(0, -2)}?${name.slice(-1)}`,
  (name: string) => `/usr/bin/${name.slice(0, 2)}[${name[2]}]${name.slice(3)}`,
  (name: string) => `"${name.slice(0, 2)}"${name.slice(2)}`,
  (name: string) => `'${name}'`,
  (name: string) => `$'${name}'`,
  (name: string) => `\\${name}`,
  (name: string) => `${name.slice(0, 1)}\\${name.slice(1)}`,
  (name: string) => `x=${name}; $x`,
  (name: string) => `\${x:-${name}}`,
  (name: string) => `$(echo ${name})`,
  (name: string) => `\`echo ${name}\``,
  (name: string) => `{${name},}`,
  (name: string) => `eval ${name}`,
  (name: string) => `a=(${name}); "\${a[@]}"`,
  (name: string) => `/usr/bin/*${name.slice(-3)}`,
  (name: string) => `${name.slice(0, 2)}\\\n${name.slice(2)}`,
  (name: string) => `$'\\x${name.charCodeAt(0).toString(16)}${name.slice(1)}'`,
];

export function heredoc(random: Random, payloadText: string): string {
  const [opener, closer] = random.pick(HEREDOC_DELIMITERS);
  const dash = random.chance(0.3) ? '-' : '';
  const reader = random.pick(['cat', 'echo', 'ls', 'git status', 'cat -', 'cat <<X', 'cat | ls']);
  const body = random.pick([
    `$(${payloadText})`,
    `\`${payloadText}\``,
    `\${x:-$(${payloadText})}`,
    `$((1+$(${payloadText})))`,
    'plain text',
    `${opener}\n${payloadText}`,
    `${closer}x\n${payloadText}`,
    ` ${closer}\n${payloadText}`,
    `${closer} \n${payloadText}`,
    `\t${closer}\n${payloadText}`,
    `${closer}\r\n${payloadText}`,
    `${closer}\\\n${payloadText}`,
    `\\\n${closer}\n${payloadText}`,
  ]);
  const terminator = random.pick([
    closer,
    closer,
    opener,
    `\t${closer}`,
    `${closer} `,
    ` ${closer}`,
    `${closer};`,
  ]);
  const after = random.chance(0.5) ? `\n${payloadText}` : '';
  const newline = random.chance(0.2) ? '\r\n' : '\n';
  const trailer = random.pick(['', '', ' ; ls', ' | ls', ' && ls', ` # ${payloadText}`, ` ${payloadText}`]);
  return `${reader} <<${dash}${opener}${trailer}\n${body}\n${terminator}${after}`.replaceAll('\n', newline);
}
