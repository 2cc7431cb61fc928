import path from 'node:path';
import type { ShellWord } from './shell-word.js';

/**
 * What a known program does beyond what its name says: options that make a "read-only" program
 * write a file (which then becomes a write subject) or run other code (which asks).
 */
export interface ProgramEffects {
  writes: ShellWord[];
  /** Reasons the call asks whatever rule allows the program. */
  asks: string[];
}

/** git options before the subcommand that change nothing about which code or files git uses. */
const GIT_INERT_GLOBALS = new Set([
  '--no-pager',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-advice',
  '--version',
]);
/** Long options of git subcommands that write a file or run a program; git accepts unique prefixes of them. */
const GIT_RISKY_LONG = [
  'output',
  'output-directory',
  'ext-diff',
  'textconv',
  'exec',
  'upload-pack',
  'receive-pack',
  'open-files-in-pager',
  'extcmd',
  'tool',
  'edit',
  'edit-description',
  'template',
  'separate-git-dir',
  'config-env',
];
/** Real options that only look like prefixes of risky ones. */
const GIT_EXACT_LONG = new Set(['text', 'to', 'exit-code', 'edit-todo']);
const GIT_RUNNING_SUBCOMMANDS = new Map([
  ['difftool', 'git difftool runs an external diff program'],
  ['mergetool', 'git mergetool runs an external merge program'],
  ['help', 'git help runs a manual viewer or a browser'],
  ['instaweb', 'git instaweb runs a web server'],
  ['web--browse', 'git web--browse runs a browser'],
  ['filter-branch', 'git filter-branch runs shell code'],
  ['send-email', 'git send-email runs a mailer'],
  ['daemon', 'git daemon runs a server'],
  ['credential', 'git credential runs credential helpers'],
]);
/** npm, pnpm and yarn options that set nothing which changes the shell, node or files they load. */
const PACKAGE_MANAGER_INERT_OPTIONS = new Set([
  'silent',
  's',
  'if-present',
  'workspaces',
  'ws',
  'recursive',
  'r',
  'parallel',
  'stream',
  'color',
  'no-color',
  'watch',
  'include-workspace-root',
  'aggregate-output',
  'report-summary',
  'sort',
  'no-sort',
  'bail',
  'no-bail',
  'verbose',
  'quiet',
  'q',
  'json',
  'reporter',
  'loglevel',
  'filter',
  'F',
  'workspace',
  'w',
  'depth',
  'all',
  'a',
  'long',
  'l',
  'parseable',
  'p',
  'omit',
  'include',
  'production',
  'prod',
  'dev',
]);
/** Programs with options that run another program (or, for tar, write files outside the archive). */
const OPTION_RUNNERS = new Map([
  [
    'tar',
    /^(-[a-zA-Z]*[IFx]|--(use-compress-program|to-command|checkpoint-action|info-script|new-volume-script|rsh-command|rmt-command|extract|get|directory|overwrite|unlink-first))/,
  ],
  ['rsync', /^(-[a-zA-Z]*e|--(rsh|rsync-path|daemon))/],
  ['zip', /^(-[a-zA-Z]*T|--(unzip-command|test))/],
  ['git-upload-pack', /./],
  ['less', /^\+|^-[a-zA-Z]*[+k]/],
  ['man', /./],
]);
/**
 * Programs that write the files their input names (a patch, an archive) rather than their
 * arguments, with the options that make them only list or check: without one they ask, since
 * what they write cannot be checked against the protected paths.
 */
const CONTENT_WRITERS = new Map([
  ['patch', /^(--dry-run|--help|--version)$/],
  ['unzip', /^-[a-zA-Z]*[ltvpZz]/],
  ['cpio', /^(-[a-zA-Z]*[to]|--(list|create))$/],
]);
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);
/** Interpreters and the options that make them run code written on the command line. */
const INLINE_CODE_FLAGS = new Map([
  ['node', /^(-[a-zA-Z]*[ep]|--eval|--print)(=|$)/],
  ['nodejs', /^(-[a-zA-Z]*[ep]|--eval|--print)(=|$)/],
  ['python', /^-[a-zA-Z]*c/],
  ['perl', /^-[a-zA-Z]*[eE]/],
  ['ruby', /^-[a-zA-Z]*e/],
  ['php', /^-[a-zA-Z]*r/],
  ['lua', /^-[a-zA-Z]*e/],
  ['deno', /^eval$/],
  ['bun', /^(-e|--eval|-p|--print)(=|$)/],
]);
export const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'npx', 'pnpx']);

/**
 * Programs that only read the files their arguments name. Options that make one of them write
 * (`sort -o`, `uniq in out`, `xxd in out`) or run code become write subjects or asks through
 * `programEffects`, so their plain arguments are read subjects: naming a write-protected file
 * (`cat quiver.yaml`) is a read of it.
 */
const READING_PROGRAMS = new Set(
  `cat tac head tail wc grep egrep fgrep rg ls stat file diff cmp md5sum sha1sum sha224sum sha256sum
  sha384sum sha512sum b2sum cksum nl od hexdump strings jq realpath readlink dirname basename du cut
  paste comm join fold fmt expand unexpand rev sort uniq xxd`.split(/\s+/),
);

/**
 * git subcommands whose file arguments are only read (pathspecs, `--no-index` operands): what
 * they write is git's own state, or a file named by an option that `gitEffects` reports.
 */
const GIT_READING_SUBCOMMANDS = new Set(
  `status diff log show grep blame annotate ls-files ls-tree shortlog describe rev-parse rev-list
  cat-file diff-files diff-index diff-tree whatchanged check-ignore check-attr name-rev for-each-ref
  show-ref show-branch merge-base count-objects`.split(/\s+/),
);

/**
 * True when the program of `argv` (a bare name, not a path) only reads the files its arguments
 * name: the reading programs, a reading git subcommand, and `find`, whose expression words are
 * patterns (its `-delete`, `-exec` and `-fprint` are judged on their own).
 */
export function readsItsArguments(argv: readonly string[]): boolean {
  const program = argv[0] ?? '';
  if (program.includes('/')) return false;
  if (READING_PROGRAMS.has(program) || program === 'find') return true;
  if (program !== 'git') return false;
  const subcommand = argv.slice(1).find((word) => !word.startsWith('-'));
  return subcommand !== undefined && GIT_READING_SUBCOMMANDS.has(subcommand);
}

export function programEffects(words: readonly ShellWord[]): ProgramEffects {
  const effects: ProgramEffects = { writes: [], asks: [] };
  const program = path.posix.basename(words[0]?.value ?? '');
  const args = words.slice(1);
  if (program === 'git') gitEffects(args, effects);
  else if (program === 'sort') sortEffects(args, effects);
  else if (program === 'find') {
    if (args.some((word) => word.value === '-delete')) effects.asks.push('find -delete removes files');
    args.forEach((word, index) => {
      const target = args[index + 1];
      if (/^-f(print0?|printf|ls)$/.test(word.value) && target) effects.writes.push(target);
    });
  } else if (program === 'printf') {
    if (args[0]?.value.startsWith('-v')) effects.asks.push('printf -v assigns a shell variable');
  } else if (program === 'rg') {
    if (args.some((word) => /^(--pre(=|$)|--search-zip$|-[a-zA-Z]*z)/.test(word.value)))
      effects.asks.push('rg --pre and --search-zip run programs on the files searched');
  } else if (program === 'xxd' || program === 'uniq') {
    // Both write their second operand (`xxd in out`, `uniq in out`).
    const operands = args.filter((word) => !word.value.startsWith('-') || word.value === '-');
    const output = operands[1];
    if (output && output.value !== '-') effects.writes.push(output);
    if (program === 'xxd' && args.some((word) => /^(-[a-zA-Z]*r|--revert)$/.test(word.value)))
      effects.asks.push('xxd -r writes binary data');
  } else if (program === 'file') {
    if (args.some((word) => /^(-[a-zA-Z]*C|--compile)$/.test(word.value)))
      effects.asks.push('file -C writes a compiled magic file');
  } else if (CONTENT_WRITERS.has(program)) {
    const listing = CONTENT_WRITERS.get(program) as RegExp;
    if (!args.some((word) => listing.test(word.value)))
      effects.asks.push(`${program} writes the files its input names, which no rule can check`);
  } else if (PACKAGE_MANAGERS.has(program)) packageManagerEffects(program, args, effects);
  else if (AWKS.has(program)) awkEffects(program, args, effects);
  else if (program === 'sed') sedEffects(args, effects);
  else if (OPTION_RUNNERS.has(program)) {
    const option = OPTION_RUNNERS.get(program) as RegExp;
    const found = args.find((word) => option.test(word.value));
    if (found) effects.asks.push(`${program} ${found.value} runs a program or writes files`);
  } else {
    const inline = INLINE_CODE_FLAGS.get(program.replace(/[\d.]+$/, ''));
    const flag = inline && args.find((word) => inline.test(word.value));
    if (flag) effects.asks.push(`${program} ${flag.value} runs code given on the command line`);
  }
  return effects;
}

/**
 * git's own commands. Any other word is an alias or runs a `git-<word>` program found on the
 * exec path or PATH (a word with `/` is a path to one), which this checker cannot see.
 */
const GIT_BUILT_IN_COMMANDS = new Set(
  `add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore
  check-mailmap check-ref-format checkout checkout-index cherry cherry-pick clean clone column commit
  commit-graph commit-tree config count-objects describe diff diff-files diff-index diff-tree
  fast-export fast-import fetch fetch-pack for-each-ref format-patch fsck gc grep hash-object
  index-pack init log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base
  merge-file merge-tree mktag mktree mv name-rev notes pack-objects pack-refs patch-id prune
  prune-packed pull push range-diff read-tree rebase reflog remote repack replace request-pull rerere
  reset restore rev-list rev-parse revert rm shortlog show show-branch show-ref sparse-checkout stash
  status stripspace submodule switch symbolic-ref tag unpack-objects update-index update-ref var
  verify-commit verify-pack verify-tag version whatchanged worktree write-tree`.split(/\s+/),
);

/**
 * git subcommands that write working-tree files named by a patch or by git's objects, or put
 * arbitrary trees into git's objects and index for a later checkout to write: what they write is
 * not on the command line, so it cannot be checked against the protected paths.
 */
function gitWritesUnnamedFiles(subcommand: string, args: readonly string[]): string | undefined {
  const has = (pattern: RegExp) => args.some((word) => pattern.test(word));
  switch (subcommand) {
    case 'apply':
      return has(/^--(check|stat|numstat|summary)$/) && !has(/^--(apply|index|cached|3way)$|^-[a-zA-Z]*3/)
        ? undefined
        : 'git apply writes the files its patch names';
    case 'am':
      return 'git am writes the files its patches name';
    case 'checkout-index':
      return 'git checkout-index writes files named by the index';
    case 'read-tree':
      return 'git read-tree puts a tree of any files into the index (and -u writes them)';
    case 'mktree':
    case 'commit-tree':
    case 'fast-import':
    case 'unpack-objects':
      return `git ${subcommand} makes objects that a checkout would write as files of any name`;
    case 'hash-object':
      return has(/^-[a-zA-Z]*w$/)
        ? 'git hash-object -w makes objects that a checkout would write'
        : undefined;
    case 'update-index':
      return has(/^--(cacheinfo|index-info)$/)
        ? 'git update-index puts files of any name into the index'
        : undefined;
    case 'bundle':
      return args.includes('unbundle')
        ? 'git bundle unbundle brings in objects a checkout would write'
        : undefined;
    default:
      return undefined;
  }
}

function gitEffects(args: readonly ShellWord[], effects: ProgramEffects): void {
  let index = 0;
  for (; index < args.length; index++) {
    const value = (args[index] as ShellWord).value;
    if (!value.startsWith('-')) break;
    if (!GIT_INERT_GLOBALS.has(value)) {
      effects.asks.push(`git ${value} changes which repository, configuration or programs git uses`);
      return;
    }
  }
  const subcommand = args[index]?.value ?? '';
  if (
    subcommand !== '' &&
    !GIT_BUILT_IN_COMMANDS.has(subcommand) &&
    !GIT_RUNNING_SUBCOMMANDS.has(subcommand)
  ) {
    effects.asks.push(
      `git ${subcommand} is not a git command this checker knows: git runs an alias or a git-${subcommand} program for it`,
    );
    return;
  }
  const running = GIT_RUNNING_SUBCOMMANDS.get(subcommand);
  if (running) effects.asks.push(running);
  const configuring = gitWritesConfiguration(
    subcommand,
    args.slice(index + 1).map((word) => word.value),
  );
  if (configuring) effects.asks.push(configuring);
  const unnamed = gitWritesUnnamedFiles(
    subcommand,
    args.slice(index + 1).map((word) => word.value),
  );
  if (unnamed) effects.asks.push(unnamed);
  if (subcommand === 'format-patch' && !args.some((word) => word.value === '--stdout'))
    effects.asks.push('git format-patch writes patch files');
  if (subcommand === 'submodule' && args.some((word) => word.value === 'foreach'))
    effects.asks.push('git submodule foreach runs shell code');
  if (subcommand === 'bisect' && args[index + 1]?.value === 'run')
    effects.asks.push('git bisect run runs a program');
  if (
    ['clone', 'fetch', 'pull', 'ls-remote'].includes(subcommand) &&
    args.some((word) => /^-[a-zA-Z]*u/.test(word.value))
  )
    effects.asks.push(`git ${subcommand} -u runs an upload-pack program`);
  for (let position = index + 1; position < args.length; position++) {
    const word = args[position] as ShellWord;
    const value = word.value;
    if (value === '--') break;
    if (value.startsWith('--') && !value.startsWith('--no-')) {
      const equals = value.indexOf('=');
      const name = value.slice(2, equals === -1 ? undefined : equals);
      if (name.length === 0 || GIT_EXACT_LONG.has(name)) continue;
      const risky = GIT_RISKY_LONG.find((option) => option.startsWith(name));
      if (!risky) continue;
      if (risky === 'output' && subcommand !== 'format-patch') {
        const target = equals === -1 ? args[position + 1] : { ...word, value: value.slice(equals + 1) };
        if (target) effects.writes.push(target);
        else effects.asks.push(`git ${subcommand} --output is missing its file`);
        if (equals === -1) position++;
        continue;
      }
      effects.asks.push(`git ${subcommand} --${risky} writes files or runs a program`);
    } else if (/^-[^-]/.test(value)) {
      if (subcommand === 'grep' && value.includes('O'))
        effects.asks.push('git grep -O opens files in a program');
      if (subcommand === 'rebase' && value.includes('x')) effects.asks.push('git rebase -x runs shell code');
      if ((subcommand === 'config' || subcommand === 'commit') && /^-[a-zA-Z]*e/.test(value))
        effects.asks.push(`git ${subcommand} -e runs an editor`);
    }
  }
}

const GIT_CONFIG_READS =
  /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|--list|-l|--show-origin|--show-scope|--name-only|--null|-z|--type=.*|--bool|--int|--path|--default=.*|--global|--local|--system|--worktree|--file=.*|--blob=.*|get|list)$/;
const GIT_REMOTE_WRITES = new Set(['add', 'set-url', 'rename', 'remove', 'rm', 'set-head', 'set-branches']);
const GIT_SUBMODULE_WRITES = new Set([
  'add',
  'init',
  'sync',
  'deinit',
  'update',
  'absorbgitdirs',
  'set-branch',
  'set-url',
]);

/**
 * Why a git subcommand writes a repository's configuration (or creates one), which is protected:
 * a person approves each, since what it writes governs every later git command. Reading forms
 * (`git config --get`, `git remote -v`, `git branch`) are not.
 */
function gitWritesConfiguration(subcommand: string, args: readonly string[]): string | undefined {
  const options = args.filter((word) => word.startsWith('-'));
  const operands = args.filter((word) => !word.startsWith('-'));
  switch (subcommand) {
    case 'init':
    case 'clone':
      return `git ${subcommand} writes a new repository's configuration`;
    case 'config': {
      const reads = args.some((word) =>
        /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|--list|-l|get|list)(=|$)/.test(
          word,
        ),
      );
      const onlyReading = args.every((word) => !word.startsWith('-') || GIT_CONFIG_READS.test(word));
      if (reads && onlyReading) return undefined;
      if (!reads && operands.length <= 1 && options.every((word) => GIT_CONFIG_READS.test(word)))
        return undefined;
      return "git config writes the repository's configuration, which Quiver protects";
    }
    case 'remote':
      return operands[0] !== undefined && GIT_REMOTE_WRITES.has(operands[0])
        ? `git remote ${operands[0]} writes the repository's configuration`
        : undefined;
    case 'submodule':
      return operands[0] !== undefined && GIT_SUBMODULE_WRITES.has(operands[0])
        ? `git submodule ${operands[0]} writes the repository's configuration`
        : undefined;
    case 'worktree':
      return operands[0] !== undefined && operands[0] !== 'list'
        ? `git worktree ${operands[0]} writes the repository's worktree configuration`
        : undefined;
    case 'branch':
    case 'checkout':
    case 'switch':
    case 'push':
      return options.some(
        (word) =>
          /^(-u|--set-upstream-to(=.*)?|--set-upstream|--unset-upstream|-t|--track(=.*)?|--edit-description|-[a-zA-Z]*u[a-zA-Z]*)$/.test(
            word,
          ) && !(subcommand !== 'branch' && subcommand !== 'push' && /^-[a-zA-Z]*u/.test(word)),
      )
        ? `git ${subcommand} with ${options.join(' ')} writes tracking settings into the repository's configuration`
        : undefined;
    default:
      return undefined;
  }
}

function sortEffects(args: readonly ShellWord[], effects: ProgramEffects): void {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    const value = word.value;
    if (value === '--') return;
    if (value.startsWith('--')) {
      const equals = value.indexOf('=');
      const name = value.slice(2, equals === -1 ? undefined : equals);
      if (name.length >= 2 && 'compress-program'.startsWith(name))
        effects.asks.push('sort --compress-program runs a program');
      else if (name.length >= 1 && 'output'.startsWith(name)) {
        const target = equals === -1 ? args[++index] : { ...word, value: value.slice(equals + 1) };
        if (target) effects.writes.push(target);
      } else if (
        equals === -1 &&
        ['files0-from', 'key', 'field-separator', 'buffer-size', 'temporary-directory'].some(
          (option) => option.startsWith(name) && name.length >= 2,
        )
      )
        index++;
      continue;
    }
    if (!/^-[^-]/.test(value)) continue;
    for (let position = 1; position < value.length; position++) {
      const option = value[position] as string;
      if (!'ktSTo'.includes(option)) continue;
      const attached = value.slice(position + 1);
      const argument = attached !== '' ? { ...word, value: attached } : args[++index];
      if (option === 'o' && argument) effects.writes.push(argument);
      break;
    }
  }
}

/**
 * npm reads every `--name` before `--` as configuration; pnpm, yarn and npx stop reading options
 * at the script or package they run and pass the rest on.
 */
function packageManagerEffects(program: string, args: readonly ShellWord[], effects: ProgramEffects): void {
  for (let index = 0; index < args.length; index++) {
    const value = (args[index] as ShellWord).value;
    if (value === '--') return;
    if (/^(--(filter|workspace|reporter|loglevel)|-[Fw])$/.test(value)) {
      index++;
      continue;
    }
    if (!value.startsWith('-') || value === '-') {
      if (program === 'npx' || program === 'pnpx') return;
      if (program !== 'npm' && !['run', 'run-script', 'exec', 'dlx'].includes(value)) return;
      continue;
    }
    const name = value.replace(/^--?/, '').replace(/=.*$/s, '');
    const names = value.startsWith('--') ? [name] : [...name];
    const unknown = names.find((option) => !PACKAGE_MANAGER_INERT_OPTIONS.has(option));
    if (unknown !== undefined) {
      effects.asks.push(
        `${program} reads ${value} as configuration, which can change the shell, node or files it loads`,
      );
      return;
    }
  }
}

/** An awk program can run commands (`system`, `cmd | getline`, `print | "cmd"`) and write files (`print > f`). */
function awkEffects(program: string, args: readonly ShellWord[], effects: ProgramEffects): void {
  for (let index = 0; index < args.length; index++) {
    const value = (args[index] as ShellWord).value;
    if (value === '-F' || value === '-v') {
      index++;
      continue;
    }
    if (/^-(f|-file|E|-exec|-include|i|-load|l)/.test(value)) {
      effects.asks.push(`${program} ${value} runs an awk program from a file`);
      return;
    }
    if (value.startsWith('-') && value !== '-' && value !== '--') continue;
    const text = value === '--' ? (args[index + 1]?.value ?? '') : value;
    if (/system|getline|[|>]|@|close|fflush/.test(text))
      effects.asks.push(`the ${program} program can run commands or write files`);
    return;
  }
}

/** A sed script can run commands (`e`, `s///e`) and write files (`w`, `s///w`, `-i`); any of those letters asks. */
function sedEffects(args: readonly ShellWord[], effects: ProgramEffects): void {
  let script: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const value = (args[index] as ShellWord).value;
    if (/^(-[a-zA-Z]*i|--in-place)/.test(value)) {
      effects.asks.push(`sed ${value} rewrites files in place`);
      return;
    }
    if (/^(-[a-zA-Z]*f|--file)/.test(value)) {
      effects.asks.push(`sed ${value} reads its script from a file`);
      return;
    }
    if (value === '-e' || value === '--expression') {
      script = `${script ?? ''}\n${args[++index]?.value ?? ''}`;
      continue;
    }
    if (value.startsWith('--expression=')) {
      script = `${script ?? ''}\n${value.slice(13)}`;
      continue;
    }
    if (value.startsWith('-')) continue;
    if (script === undefined) script = value;
    else break;
  }
  if (script !== undefined && /[ewWrRF]/.test(script))
    effects.asks.push('the sed script may run commands or write files (it has e, w, r or F)');
}
