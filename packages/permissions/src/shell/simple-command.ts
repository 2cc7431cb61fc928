import path from 'node:path';
import {
  addPathRedirect,
  changeDirectory,
  changeDirectoryFor,
  checkUnsetName,
  checkVariableName,
  markUnsafe,
  recordCommand,
  type Scope,
  type State,
} from './analysis-state.js';
import { programEffects } from './program-semantics.js';
import type { ShellRedirect } from './shell-analysis.js';
import { CODE_RUNNING_BUILTINS, DIRECTORY_CHANGERS, SHELLS, VARIABLE_NAME_BUILTINS } from './shell-syntax.js';
import type { ShellWord } from './shell-word.js';
import { COMMAND_RUNNERS, splitFind, unwrapCommand } from './wrappers.js';

export function analyzeWords(
  words: ShellWord[],
  text: string,
  state: State,
  scope: Scope,
  redirects: ShellRedirect[],
  stdinIsText: boolean,
  appendsArguments = false,
): void {
  let current = words;
  const wrappers = [...scope.wrappers];
  const outerArgv = [...scope.outerArgv];
  let appends = appendsArguments;
  for (let layer = 0; layer < 16; layer++) {
    const name = current[0];
    if (!name) {
      if (redirects.length > 0)
        recordCommand(state, { ...scope, wrappers, outerArgv }, [], text, redirects, appends);
      return;
    }
    if (!name.literal || name.glob) {
      markUnsafe(
        state,
        'the command name is not a literal word (it comes from an expansion or a glob)',
        text,
      );
      return;
    }
    const unwrapped = unwrapCommand(current);
    if (unwrapped.kind === 'unsafe') {
      markUnsafe(state, unwrapped.reason, text);
      recordCommand(state, { ...scope, wrappers, outerArgv }, current, text, redirects, appends);
      return;
    }
    if (unwrapped.kind === 'wrapped') {
      const wrapped = unwrapped.command;
      for (const assignment of wrapped.assignments)
        checkVariableName(assignment.value.split('=')[0] ?? '', assignment.value, state);
      for (const unset of wrapped.unsets) checkUnsetName(unset.value, state, text);
      for (const reason of wrapped.environmentChanges) markUnsafe(state, reason, text);
      for (const write of wrapped.writes) addPathRedirect(state, redirects, write, 'write', text);
      for (const read of wrapped.reads) addPathRedirect(state, redirects, read, 'read', text);
      if (wrapped.chdir) changeDirectory(state, wrapped.chdir);
      // xargs with no command runs echo.
      if (wrapped.rest.length === 0 && wrapped.wrapper === 'xargs')
        wrapped.rest = [{ value: 'echo', literal: true, glob: false }];
      if (wrapped.rest.length === 0) {
        recordCommand(state, { ...scope, wrappers, outerArgv }, current, text, redirects, appends);
        return;
      }
      outerArgv.push(current.map((word) => word.value));
      wrappers.push(wrapped.wrapper);
      appends ||= wrapped.appendsArguments;
      current = wrapped.rest;
      continue;
    }
    const program = name.value;
    const inner: Scope = { ...scope, wrappers, outerArgv };
    const effects = programEffects(current);
    for (const reason of effects.asks) markUnsafe(state, reason, text);
    for (const write of effects.writes) addPathRedirect(state, redirects, write, 'write', text);
    const runsArguments = COMMAND_RUNNERS.get(path.posix.basename(program));
    if (runsArguments) markUnsafe(state, runsArguments, text);
    if (program.includes('/') && !SYSTEM_PROGRAM.test(program))
      markUnsafe(
        state,
        `${program} is a program named by a path outside the system directories, whose code cannot be known`,
        text,
      );
    if (program === 'man' && current.length === 1) markUnsafe(state, 'man runs formatters and a pager', text);
    if (program === 'egrep' || program === 'fgrep') {
      // Both are scripts that run grep.
      const grep = [
        { value: 'grep', literal: true, glob: false },
        { value: program === 'egrep' ? '-E' : '-F', literal: true, glob: false },
        ...current.slice(1),
      ];
      recordCommand(
        state,
        {
          ...inner,
          wrappers: [...wrappers, program],
          outerArgv: [...outerArgv, current.map((word) => word.value)],
        },
        grep,
        text,
        [...redirects],
        appends,
      );
    }
    if (path.posix.basename(program) === 'find') {
      const split = splitFind(current);
      if (split.error) markUnsafe(state, split.error, text);
      if (split.executed.length > 0)
        markUnsafe(state, 'find -exec, -execdir and -ok run a program on each file found', text);
      if (split.writes.length > 0) markUnsafe(state, 'find -fprint and -fls write files', text);
      for (const write of split.writes) addPathRedirect(state, redirects, write, 'write', text);
      recordCommand(state, inner, split.findWords, text, redirects, appends);
      const findArgv = current.map((word) => word.value);
      for (const executed of split.executed) {
        analyzeWords(
          executed,
          text,
          state,
          { ...inner, wrappers: [...wrappers, 'find -exec'], outerArgv: [...outerArgv, findArgv] },
          [],
          false,
          true,
        );
      }
      return;
    }
    if (SHELLS.has(program)) {
      analyzeShellInvocation(current, text, state, inner, redirects, stdinIsText, appends);
      return;
    }
    const codeRunning = CODE_RUNNING_BUILTINS.get(program);
    if (codeRunning) markUnsafe(state, codeRunning, text);
    if (VARIABLE_NAME_BUILTINS.has(program) && current.slice(1).some((word) => word.value.includes('['))) {
      markUnsafe(
        state,
        'a variable name with a subscript is evaluated as arithmetic, which can run commands',
        text,
      );
    }
    if (program === 'tee') {
      for (const target of current.slice(1))
        if (!target.value.startsWith('-')) addPathRedirect(state, redirects, target, 'write', text);
    }
    recordCommand(state, inner, current, text, redirects, appends);
    if (DIRECTORY_CHANGERS.has(program)) changeDirectoryFor(program, current.slice(1), state);
    return;
  }
  markUnsafe(state, 'too many nested wrapper programs', text);
}

/** Absolute paths of the system's program directories, without `..`. */
const SYSTEM_PROGRAM = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/;

const SHELL_INERT_LONG = new Set(['--norc', '--noprofile', '--posix', '--noediting', '--verbose']);

export function analyzeShellInvocation(
  words: ShellWord[],
  text: string,
  state: State,
  scope: Scope,
  redirects: ShellRedirect[],
  stdinIsText: boolean,
  appends: boolean,
): void {
  const program = words[0]?.value ?? 'sh';
  let runsString = false;
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] as ShellWord;
    if (!word.literal) {
      markUnsafe(state, `${program} has an argument that is not a literal word`, text);
      recordCommand(state, scope, words, text, redirects, appends);
      return;
    }
    const value = word.value;
    if (value === '--' || value === '-') {
      index++;
      break;
    }
    // Other options source startup files (`-l`, `--login`, `--rcfile`), read commands from stdin
    // (`-s`, `-i`) or change how the command string is parsed (`-O extglob`, `-k`).
    const inert = value.startsWith('--') ? SHELL_INERT_LONG.has(value) : /^-[ceuxvfnp]+$/.test(value);
    if (/^[-+]/.test(value) && value.length > 1 && !inert) {
      markUnsafe(
        state,
        `${program} ${value} reads startup files, standard input or changes how commands are parsed`,
        text,
      );
      recordCommand(state, scope, words, text, redirects, appends);
      return;
    }
    if (value.startsWith('-') && value.length > 1) {
      if (!value.startsWith('--') && value.includes('c')) runsString = true;
      continue;
    }
    break;
  }
  const payload = words[index];
  if (!runsString) {
    if (!payload || stdinIsText)
      markUnsafe(state, `${program} reads commands from standard input, which cannot be checked`, text);
    else
      markUnsafe(
        state,
        `${program} runs the script ${payload.value}, whose commands cannot be checked`,
        text,
      );
    recordCommand(state, scope, words, text, redirects, appends);
    return;
  }
  if (!payload || !payload.literal) {
    markUnsafe(state, `${program} -c has a command string that is not a literal word`, text);
    recordCommand(state, scope, words, text, redirects, appends);
    return;
  }
  const shellArgv = words.map((word) => word.value);
  const before = state.analysis.commands.filter((command) => command.argv.length > 0).length;
  state.analyzeSource(payload.value, state, {
    depth: scope.depth + 1,
    wrappers: [...scope.wrappers, `${program} -c`],
    outerArgv: [...scope.outerArgv, shellArgv],
    redirects,
    origin: scope.origin ?? { start: payload.start ?? 0, end: payload.end ?? 0 },
  });
  // The shell runs even when its string runs no program (`sh -c LANG=`): then it is the program.
  if (state.analysis.commands.filter((command) => command.argv.length > 0).length === before)
    recordCommand(state, scope, words, text, redirects, appends);
}
