import type { ShellWord } from './shell-word.js';

/** What a wrapper program (`env`, `sudo`, `timeout`, …) does before running the command it wraps. */
export interface UnwrappedCommand {
  wrapper: string;
  /** The wrapped command's words; empty when the wrapper runs nothing (`env` alone prints). */
  rest: ShellWord[];
  /** `NAME=value` words the wrapper puts in the environment. */
  assignments: ShellWord[];
  /** Names the wrapper removes from the environment (`env -u NAME`). */
  unsets: ShellWord[];
  /** Paths the wrapper itself writes (`time -o FILE`) or reads (`xargs -a FILE`). */
  writes: ShellWord[];
  reads: ShellWord[];
  /** A directory the wrapper changes into first (`env -C DIR`). */
  chdir?: ShellWord;
  /** The wrapped command receives more arguments than these words show (`xargs`). */
  appendsArguments: boolean;
  /**
   * Why the wrapped command runs without the environment Quiver gives the programs it starts
   * (`env -i`, `env -u NAME`, `exec -c`, `sudo`): the caller asks, and still judges the wrapped
   * command so that a deny rule for it holds.
   */
  environmentChanges: string[];
}

export type UnwrapResult =
  | { kind: 'none' }
  | { kind: 'unsafe'; reason: string }
  | { kind: 'wrapped'; command: UnwrappedCommand };

interface WrapperOptions {
  /** Short options without an argument. */
  flags: string;
  /** Short options that take an argument (attached or next word). */
  withArgument: string;
  /** Short options whose argument is optional and only ever attached (`xargs -i[R]`). */
  attachedOptional?: string;
  longFlags?: string[];
  longWithArgument?: string[];
  /** Options that make the wrapper run a shell or an editor: never unwrapped. */
  unsafeShort?: string;
  unsafeLong?: string[];
  assignments?: boolean;
  /** Words before the command that are not options (`timeout DURATION`). */
  positional?: number;
  numericOption?: boolean;
  /** Options after which nothing is executed (`command -v name`). */
  nonExecuting?: string;
}

const WRAPPERS: Record<string, WrapperOptions> = {
  env: {
    flags: 'i0v',
    withArgument: 'uC',
    longFlags: [
      'ignore-environment',
      'null',
      'debug',
      'block-signal',
      'default-signal',
      'ignore-signal',
      'list-signal-handling',
    ],
    longWithArgument: ['unset', 'chdir'],
    unsafeShort: 'S',
    unsafeLong: ['split-string'],
    assignments: true,
  },
  sudo: {
    flags: 'AbEHKklnPSVv',
    withArgument: 'CDgpRrTtUuh',
    longFlags: [
      'askpass',
      'background',
      'preserve-env',
      'set-home',
      'remove-timestamp',
      'reset-timestamp',
      'non-interactive',
      'preserve-groups',
      'stdin',
      'validate',
      'list',
    ],
    longWithArgument: [
      'close-from',
      'chdir',
      'group',
      'host',
      'prompt',
      'chroot',
      'role',
      'type',
      'command-timeout',
      'other-user',
      'user',
    ],
    unsafeShort: 'eis',
    unsafeLong: ['edit', 'login', 'shell'],
    assignments: true,
  },
  doas: { flags: 'ns', withArgument: 'uC', unsafeShort: 's' },
  timeout: {
    flags: 'v',
    withArgument: 'sk',
    longFlags: ['foreground', 'preserve-status', 'verbose'],
    longWithArgument: ['signal', 'kill-after'],
    positional: 1,
  },
  nice: { flags: '', withArgument: 'n', longWithArgument: ['adjustment'], numericOption: true },
  nohup: { flags: '', withArgument: '' },
  setsid: { flags: 'cfw', withArgument: '', longFlags: ['ctty', 'fork', 'wait'] },
  time: {
    flags: 'apqvV',
    withArgument: 'fo',
    longFlags: ['append', 'portability', 'quiet', 'verbose'],
    longWithArgument: ['format', 'output'],
  },
  stdbuf: { flags: '', withArgument: 'ioe', longWithArgument: ['input', 'output', 'error'] },
  exec: { flags: 'cl', withArgument: 'a' },
  command: { flags: 'p', withArgument: '', nonExecuting: 'vV' },
  builtin: { flags: '', withArgument: '' },
  xargs: {
    flags: '0rtpxo',
    withArgument: 'adEILnPs',
    attachedOptional: 'eil',
    longFlags: ['null', 'no-run-if-empty', 'verbose', 'interactive', 'exit', 'open-tty', 'show-limits'],
    longWithArgument: [
      'arg-file',
      'delimiter',
      'eof',
      'replace',
      'max-lines',
      'max-args',
      'max-procs',
      'max-chars',
      'process-slot-var',
    ],
  },
};

/**
 * Programs that run a command, code or script given in their arguments but whose options this
 * checker does not model: the program they run cannot be proven, so they ask (deny rules still
 * see the words).
 */
export const COMMAND_RUNNERS = new Map([
  ...[
    'ionice',
    'taskset',
    'chrt',
    'flock',
    'setpriv',
    'unshare',
    'nsenter',
    'chroot',
    'runuser',
    'sg',
    'pkexec',
    'firejail',
    'strace',
    'ltrace',
    'valgrind',
    'gdb',
    'perf',
    'parallel',
    'systemd-run',
    'busybox',
    'toybox',
    'fakeroot',
    'eatmydata',
    'nocache',
    'cpulimit',
    'unbuffer',
    'rlwrap',
    'entr',
    'chpst',
    'setarch',
    'linux32',
    'linux64',
    'numactl',
    'prlimit',
    'faketime',
    'proxychains',
    'proxychains4',
    'torsocks',
    'catchsegv',
    'dbus-launch',
    'ssh',
    'tmux',
    'screen',
    'expect',
    'direnv',
    'caffeinate',
    'sem',
    'retry',
    'vi',
    'vim',
    'nvim',
    'view',
    'ex',
    'ed',
    'emacs',
    'xdg-open',
    'open',
    'at',
    'batch',
    'crontab',
    'nohup-wrapper',
  ].map(
    (name) =>
      [name, `${name} runs a command given in its arguments, which this checker does not model`] as const,
  ),
]);

export function isWrapperName(name: string): boolean {
  return Object.hasOwn(WRAPPERS, name);
}

/** Peels one wrapper off `words` (whose first word is the program name). */
export function unwrapCommand(words: ShellWord[]): UnwrapResult {
  const name = words[0]?.value ?? '';
  const options = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  if (!options) return { kind: 'none' };
  const command: UnwrappedCommand = {
    wrapper: name,
    rest: [],
    assignments: [],
    unsets: [],
    writes: [],
    reads: [],
    appendsArguments: name === 'xargs',
    environmentChanges:
      name === 'sudo' || name === 'doas'
        ? [
            `${name} runs the command as another user, with that user's home directory and configuration, and resets the environment Quiver sets (git's safety settings among it)`,
          ]
        : [],
  };
  const captured: Array<{ option: string; value: ShellWord }> = [];
  let index = 1;
  let sawAssignment = false;
  while (index < words.length) {
    const word = words[index] as ShellWord;
    if (!word.literal)
      return { kind: 'unsafe', reason: `${name} has an argument that is not a literal word` };
    const value = word.value;
    if (value === '--') {
      index++;
      break;
    }
    if (options.assignments && value.includes('=')) {
      // The program takes every word with `=` as an assignment, valid name or not: one that is
      // not a plain NAME=value cannot be modelled, and a wrong guess hides the program it runs.
      if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(value))
        return { kind: 'unsafe', reason: `${name} reads "${value}" as an environment assignment` };
      command.assignments.push(word);
      sawAssignment = true;
      index++;
      continue;
    }
    if (sawAssignment && value.startsWith('-'))
      return { kind: 'unsafe', reason: `${name} runs "${value}" as a program after its assignments` };
    if (options.numericOption && /^--?\d+$/.test(value)) {
      index++;
      continue;
    }
    if (value === '-' && name === 'env') {
      command.environmentChanges.push(clearedEnvironment('env -'));
      index++;
      continue;
    }
    if (value.startsWith('--')) {
      const equals = value.indexOf('=');
      const long = value.slice(2, equals === -1 ? undefined : equals);
      if (options.unsafeLong?.includes(long))
        return { kind: 'unsafe', reason: `${name} --${long} runs a shell or an editor` };
      if (options.longWithArgument?.includes(long)) {
        const argument = equals === -1 ? words[index + 1] : { ...word, value: value.slice(equals + 1) };
        if (!argument) return { kind: 'unsafe', reason: `${name} --${long} is missing its argument` };
        captured.push({ option: long, value: argument });
        index += equals === -1 ? 2 : 1;
        continue;
      }
      if (options.longFlags?.includes(long)) {
        if (name === 'env' && long === 'ignore-environment')
          command.environmentChanges.push(clearedEnvironment('env --ignore-environment'));
        index++;
        continue;
      }
      return { kind: 'unsafe', reason: `${name} has an option this checker does not know: ${value}` };
    }
    if (value.startsWith('-') && value.length > 1) {
      let consumed = 1;
      for (let position = 1; position < value.length; position++) {
        const option = value[position] as string;
        if (options.nonExecuting?.includes(option)) return { kind: 'none' };
        if (options.unsafeShort?.includes(option))
          return { kind: 'unsafe', reason: `${name} -${option} runs a shell or an editor` };
        if (options.attachedOptional?.includes(option)) break;
        if (options.withArgument.includes(option)) {
          const attached = value.slice(position + 1);
          const argument = attached !== '' ? { ...word, value: attached } : words[index + 1];
          if (!argument) return { kind: 'unsafe', reason: `${name} -${option} is missing its argument` };
          captured.push({ option, value: argument });
          if (attached === '') consumed = 2;
          break;
        }
        if (!options.flags.includes(option))
          return { kind: 'unsafe', reason: `${name} has an option this checker does not know: -${option}` };
        if ((name === 'env' && option === 'i') || (name === 'exec' && option === 'c'))
          command.environmentChanges.push(clearedEnvironment(`${name} -${option}`));
      }
      index += consumed;
      continue;
    }
    break;
  }
  // Assignments may follow `--` too: the program reads them after its options, whatever ended those.
  while (options.assignments && index < words.length) {
    const word = words[index] as ShellWord;
    if (!word.literal || !word.value.includes('=')) break;
    if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value))
      return { kind: 'unsafe', reason: `${name} reads "${word.value}" as an environment assignment` };
    command.assignments.push(word);
    index++;
  }
  const positional = options.positional ?? 0;
  if (words.length - index < positional)
    return { kind: 'unsafe', reason: `${name} is missing its arguments` };
  index += positional;
  command.rest = words.slice(index);
  for (const { option, value } of captured) {
    if (name === 'env' && (option === 'C' || option === 'chdir')) command.chdir = value;
    if (name === 'env' && (option === 'u' || option === 'unset')) command.unsets.push(value);
    if (name === 'sudo' && (option === 'D' || option === 'chdir' || option === 'R' || option === 'chroot'))
      command.chdir = { ...value, literal: false };
    if (name === 'time' && (option === 'o' || option === 'output')) command.writes.push(value);
    if (name === 'xargs' && (option === 'a' || option === 'arg-file')) command.reads.push(value);
  }
  return { kind: 'wrapped', command };
}

function clearedEnvironment(how: string): string {
  return `${how} clears the environment Quiver gives the programs it starts (the home directory, git's safety settings): the program then reads the account's own configuration`;
}

/** A `find` invocation split into find itself and the commands its `-exec`-style actions run. */
export interface FindSplit {
  findWords: ShellWord[];
  executed: ShellWord[][];
  writes: ShellWord[];
  error?: string;
}

const FIND_EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_WRITE_ACTIONS = new Set(['-fprint', '-fprint0', '-fls']);

export function splitFind(words: ShellWord[]): FindSplit {
  const split: FindSplit = { findWords: [], executed: [], writes: [] };
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as ShellWord;
    if (FIND_EXEC_ACTIONS.has(word.value)) {
      const end = words.findIndex(
        (candidate, position) => position > index && (candidate.value === ';' || candidate.value === '+'),
      );
      if (end === -1) return { ...split, error: `find ${word.value} has no terminating ";" or "+"` };
      split.executed.push(words.slice(index + 1, end));
      index = end;
      continue;
    }
    if (FIND_WRITE_ACTIONS.has(word.value) || word.value === '-fprintf') {
      const target = words[index + 1];
      if (target) split.writes.push(target);
      index += word.value === '-fprintf' ? 2 : 1;
      continue;
    }
    split.findWords.push(word);
  }
  return split;
}
