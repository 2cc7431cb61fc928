import {
  addPathRedirect,
  changeDirectory,
  changeDirectoryFor,
  checkVariableName,
  markUnsafe,
  recordCommand,
  type Scope,
  type State,
} from './analysis-state.js';
import type { ShellRedirect } from './shell-analysis.js';
import { CODE_RUNNING_BUILTINS, DIRECTORY_CHANGERS, SHELLS, VARIABLE_NAME_BUILTINS } from './shell-syntax.js';
import type { ShellWord } from './shell-word.js';
import { splitFind, unwrapCommand } from './wrappers.js';

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
      for (const write of wrapped.writes) addPathRedirect(state, redirects, write, 'write', text);
      for (const read of wrapped.reads) addPathRedirect(state, redirects, read, 'read', text);
      if (wrapped.chdir) changeDirectory(state, wrapped.chdir);
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
    if (program === 'find') {
      const split = splitFind(current);
      if (split.error) markUnsafe(state, split.error, text);
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
    if (value.startsWith('--')) {
      if (value === '--rcfile' || value === '--init-file') index++;
      continue;
    }
    if (/^[-+]/.test(value) && value.length > 1) {
      if (/[si]/.test(value.slice(1)) && value.startsWith('-')) {
        markUnsafe(
          state,
          `${program} ${value} reads commands from standard input or runs interactively`,
          text,
        );
        recordCommand(state, scope, words, text, redirects, appends);
        return;
      }
      if (value.includes('c')) runsString = true;
      if (/[oO]/.test(value.slice(1))) index++;
      continue;
    }
    break;
  }
  const payload = words[index];
  if (!runsString) {
    if (!payload || stdinIsText)
      markUnsafe(state, `${program} reads commands from standard input, which cannot be checked`, text);
    recordCommand(state, scope, words, text, redirects, appends);
    return;
  }
  if (!payload || !payload.literal) {
    markUnsafe(state, `${program} -c has a command string that is not a literal word`, text);
    recordCommand(state, scope, words, text, redirects, appends);
    return;
  }
  const shellArgv = words.map((word) => word.value);
  state.analyzeSource(payload.value, state, {
    depth: scope.depth + 1,
    wrappers: [...scope.wrappers, `${program} -c`],
    outerArgv: [...scope.outerArgv, shellArgv],
    redirects,
  });
}
