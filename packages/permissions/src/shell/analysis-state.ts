import path from 'node:path';
import type { Parser } from 'web-tree-sitter';
import type { ShellAnalysis, ShellCommandAnalysis, ShellRedirect } from './shell-analysis.js';
import { INERT_VARIABLES, MAX_WORKING_DIRECTORIES } from './shell-syntax.js';
import type { ShellWord } from './shell-word.js';

/** Where a walk is: nesting depth, wrappers peeled so far, redirects inherited from an enclosing statement. */
export interface Scope {
  depth: number;
  wrappers: string[];
  outerArgv: string[][];
  redirects: ShellRedirect[];
  /** For nested shell code: the range of its payload in the outermost command. */
  origin?: { start: number; end: number };
}

export interface State {
  parser: Parser;
  /** Parses and walks nested shell code (`bash -c` strings). */
  analyzeSource(source: string, state: State, scope: Scope): void;
  analysis: ShellAnalysis;
  workingDirectories: string[] | null;
  /** The outermost command, as given. */
  source: string;
  /** Current recursion depth of the tree walk. */
  nesting: number;
}

export function markUnsafe(state: State, reason: string, text: string): void {
  state.analysis.unsafe.push({ reason, text });
}

/**
 * Only names on a short list of inert variables may be set: any other name may be read by the
 * program to pick a configuration, a pager, a shell or code to load (npm reads `npm_config_*` in
 * any letter case, git reads `GIT_*`, `HOME` and `XDG_CONFIG_HOME`).
 */
export function checkVariableName(name: string, text: string, state: State): void {
  const value = text.slice(text.indexOf('=') + 1);
  // An inert name still names a file when its value is a path (`TZ=:/x`, `LC_ALL=./x`): libc reads it.
  if (INERT_VARIABLES.has(name) && /[/\\]|^['"]?:/.test(value))
    markUnsafe(state, `${name}=${value} names a file that programs read`, text);
  else if (!INERT_VARIABLES.has(name))
    markUnsafe(
      state,
      `setting ${name} can change which program runs or what it loads (inert names: ${[...INERT_VARIABLES].slice(0, 6).join(', ')}, …)`,
      text,
    );
}

/** Removing a variable (`env -u NAME`) is judged as setting it: only inert names may go. */
export function checkUnsetName(name: string, state: State, text: string): void {
  if (!INERT_VARIABLES.has(name))
    markUnsafe(
      state,
      `removing ${name} from the environment can change which program runs or what it loads (inert names: ${[...INERT_VARIABLES].slice(0, 6).join(', ')}, …)`,
      text,
    );
}

export function addPathRedirect(
  state: State,
  redirects: ShellRedirect[],
  word: ShellWord,
  kind: 'write' | 'read',
  text: string,
): void {
  if (!word.literal || word.glob) {
    markUnsafe(state, `a ${kind} target that is not a literal path`, text);
    return;
  }
  redirects.push({ path: word.value, kind });
}

export function changeDirectoryFor(program: string, args: ShellWord[], state: State): void {
  const operands = args.filter((word) => !/^-[LPe@]+$/.test(word.value) && word.value !== '--');
  if (program === 'popd' || operands.length !== 1) {
    const target = operands[0];
    // `cd` alone goes to the shell's HOME, which is the terminal's, not this process's: unknown here.
    if (program === 'cd' && operands.length === 0) state.workingDirectories = null;
    else if (program === 'pushd' && target && !target.value.startsWith('+') && !target.value.startsWith('-'))
      changeDirectory(state, target);
    else state.workingDirectories = null;
    return;
  }
  const target = operands[0] as ShellWord;
  if (target.value === '-') state.workingDirectories = null;
  else changeDirectory(state, target);
}

/** A `cd` may or may not take effect (`false && cd x`), so both directories stay possible. */
export function changeDirectory(state: State, target: ShellWord): void {
  if (!target.literal || target.glob || state.workingDirectories === null) {
    state.workingDirectories = null;
    return;
  }
  const next = new Set(state.workingDirectories);
  for (const directory of state.workingDirectories)
    next.add(
      path.posix.isAbsolute(target.value)
        ? path.posix.normalize(target.value)
        : path.posix.join(directory, target.value),
    );
  state.workingDirectories = next.size > MAX_WORKING_DIRECTORIES ? null : [...next];
}

export function recordCommand(
  state: State,
  scope: Scope,
  words: ShellWord[],
  text: string,
  redirects: ShellRedirect[],
  appendsArguments: boolean,
): void {
  const directories = state.workingDirectories;
  const command: ShellCommandAnalysis = {
    argv: words.map((word) => word.value),
    text,
    wrappers: scope.wrappers,
    redirects,
    outerArgv: scope.outerArgv,
    opaqueArguments: words.filter((word) => !word.literal || word.glob).map((word) => word.value),
    appendsArguments,
  };
  if (directories === null) command.workingDirectories = null;
  else if (directories.length > 1 || directories[0] !== '.') command.workingDirectories = [...directories];
  state.analysis.commands.push(command);
}
