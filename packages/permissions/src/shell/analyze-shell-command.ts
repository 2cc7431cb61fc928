import path from 'node:path';
import type { Node, Parser } from 'web-tree-sitter';
import { loadBashParser } from './bash-parser.js';
import type { ShellAnalysis, ShellCommandAnalysis, ShellRedirect } from './shell-analysis.js';
import { resolveShellWord, type ShellWord } from './shell-word.js';
import { splitFind, unwrapCommand } from './wrappers.js';

const MAX_DEPTH = 8;
const MAX_WORKING_DIRECTORIES = 16;

/** Node types that hold other statements and run nothing by themselves. */
const CONTAINER_TYPES = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'do_group',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'case_statement',
  'case_item',
  'function_definition',
  'negated_command',
]);

/** Word-like nodes: they run nothing unless they contain a substitution. */
const WORD_TYPES = new Set([
  'word',
  'number',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'variable_name',
  'extglob_pattern',
  'regex',
]);

const SUBSTITUTION_TYPES = new Set(['command_substitution', 'process_substitution', 'arithmetic_expansion']);
const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash']);
/** Commands that run text as shell code or change how later commands are looked up. */
const CODE_RUNNING_BUILTINS = new Map([
  ['eval', 'eval runs its arguments as shell code'],
  ['source', 'source runs a file as shell code'],
  ['.', '. runs a file as shell code'],
  ['trap', 'trap runs its argument as shell code later'],
  ['alias', 'alias changes what later command names mean'],
  ['hash', 'hash changes where later command names are looked up'],
  ['enable', 'enable can load builtins from shared objects'],
  ['let', 'let evaluates arithmetic, which can run commands through array subscripts'],
  ['fc', 'fc re-runs commands from the history'],
  ['coproc', 'coproc runs a command in the background'],
  ['watch', 'watch runs its arguments through sh -c'],
  ['su', 'su runs a shell as another user'],
  ['script', 'script runs a shell'],
]);
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
const HARMLESS_WRITE_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
/** Environment variables that change which program runs or inject code into it. */
const DANGEROUS_VARIABLE =
  /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|BASH_FUNC_\w*|PROMPT_COMMAND|IFS|SHELLOPTS|BASHOPTS|PS4|CDPATH|GLOBIGNORE|HOME|GIT_\w+|PAGER|\w+_PAGER|EDITOR|VISUAL|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|npm_config_\w+|NPM_CONFIG_\w+|SSH_ASKPASS|SUDO_ASKPASS|TMPDIR)$/;

interface Scope {
  depth: number;
  wrappers: string[];
  outerArgv: string[][];
  redirects: ShellRedirect[];
}

interface State {
  parser: Parser;
  analysis: ShellAnalysis;
  workingDirectories: string[] | null;
}

/**
 * Parses `command` with a real bash grammar and lists every simple command it would run,
 * including those inside lists, pipelines, compound statements, substitutions and `bash -c`.
 */
export async function analyzeShellCommand(command: string): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  const state: State = { parser, analysis: { commands: [], unsafe: [] }, workingDirectories: ['.'] };
  analyzeSource(command, state, { depth: 0, wrappers: [], outerArgv: [], redirects: [] });
  return state.analysis;
}

function analyzeSource(source: string, state: State, scope: Scope): void {
  if (scope.depth > MAX_DEPTH) {
    markUnsafe(state, 'shell code is nested too deeply to check', source);
    return;
  }
  const tree = state.parser.parse(source);
  if (!tree) {
    markUnsafe(state, 'the shell parser returned no tree', source);
    state.analysis.parseError ??= 'the shell parser returned no tree';
    return;
  }
  try {
    if (tree.rootNode.hasError) {
      const message =
        scope.depth === 0
          ? 'the command has a syntax error or a construct the parser does not understand'
          : 'nested shell code has a syntax error';
      state.analysis.parseError ??= message;
      markUnsafe(state, message, source);
    }
    visitStatement(tree.rootNode, state, scope);
  } finally {
    tree.delete();
  }
}

function markUnsafe(state: State, reason: string, text: string): void {
  state.analysis.unsafe.push({ reason, text });
}

function visitStatement(node: Node, state: State, scope: Scope): void {
  if (CONTAINER_TYPES.has(node.type)) {
    for (const child of node.namedChildren) {
      if (child) visitChild(child, state, scope);
    }
    return;
  }
  switch (node.type) {
    case 'command':
      visitCommand(node, state, scope);
      return;
    case 'redirected_statement': {
      const redirects = [...scope.redirects];
      const body = node.childForFieldName('body');
      for (const child of node.namedChildren) {
        if (child && child !== body && REDIRECT_TYPES.has(child.type))
          visitRedirect(child, state, scope, redirects);
      }
      if (body) visitStatement(body, state, { ...scope, redirects });
      else if (redirects.length > 0) recordCommand(state, scope, [], node.text, redirects, false);
      return;
    }
    case 'variable_assignment':
    case 'variable_assignments':
    case 'declaration_command':
    case 'unset_command':
      if (node.type === 'declaration_command' || node.type === 'unset_command') checkVariableNameArguments(node, state);
      checkAssignments(node, state);
      scanWords(node, state, scope);
      return;
    case 'test_command':
      if (containsType(node, ['simple_expansion', 'expansion', 'arithmetic_expansion']) || /[[$`]/.test(node.text.slice(2, -2))) {
        markUnsafe(
          state,
          'a [ … ] or [[ … ]] test with expansions or subscripts can evaluate arithmetic that runs commands',
          node.text,
        );
      }
      scanWords(node, state, scope);
      return;
    case 'comment':
      return;
    default:
      markUnsafe(state, `the shell construct "${node.type}" is not understood by this checker`, node.text);
      scanWords(node, state, scope);
  }
}

function visitChild(child: Node, state: State, scope: Scope): void {
  if (WORD_TYPES.has(child.type) || SUBSTITUTION_TYPES.has(child.type)) scanNode(child, state, scope);
  else if (REDIRECT_TYPES.has(child.type)) visitRedirect(child, state, scope, [...scope.redirects]);
  else visitStatement(child, state, scope);
}

/** Finds substitutions inside words: they are unsafe, and the commands inside them are still checked. */
function scanWords(node: Node, state: State, scope: Scope): void {
  for (const child of node.namedChildren) {
    if (child) scanNode(child, state, scope);
  }
}

function scanNode(node: Node, state: State, scope: Scope): void {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    const kind =
      node.type === 'process_substitution'
        ? 'process substitution'
        : node.text.startsWith('`')
          ? 'backtick substitution'
          : 'command substitution';
    markUnsafe(state, `${kind} runs a command whose output cannot be checked in advance`, node.text);
    for (const inner of node.namedChildren) {
      if (inner) visitChild(inner, state, { ...scope, depth: scope.depth + 1, redirects: [] });
    }
    return;
  }
  if (node.type === 'arithmetic_expansion') {
    markUnsafe(state, 'arithmetic expansion can run commands through array subscripts', node.text);
  }
  if (node.type === 'expansion' && !isPlainParameterExpansion(node.text)) {
    markUnsafe(state, 'a parameter expansion with a subscript, an offset, indirection or a transformation can run commands', node.text);
  }
  scanWords(node, state, scope);
}

/**
 * `${name}`, `${#name}` and the default/trim/replace/case operators are plain text; subscripts
 * and offsets are evaluated as arithmetic and `${!x}`/`${x@P}` re-expand a value, which can run
 * `$(…)` hidden in a variable.
 */
function isPlainParameterExpansion(text: string): boolean {
  const match = /^\$\{#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)\}$/s.exec(text);
  if (!match) return false;
  const rest = match[2] as string;
  return rest === '' || /^(:?[-=+?]|##?|%%?|\/[/#%]?|\^\^?|,,?)/.test(rest);
}

/** Builtins that take variable names: a name with a subscript (`a[$(id)]`) is evaluated as arithmetic. */
const VARIABLE_NAME_BUILTINS = new Set(['read', 'printf', 'mapfile', 'readarray', 'getopts', 'unset', 'declare', 'typeset', 'local', 'export', 'readonly', 'wait', 'test', '[']);

function checkVariableNameArguments(node: Node, state: State): void {
  const words = node.namedChildren.filter((child): child is Node => child !== null && child.type !== 'variable_assignment');
  for (const word of words) {
    const value = resolveShellWord(word).value;
    if (value.includes('[')) {
      markUnsafe(state, 'a variable name with a subscript is evaluated as arithmetic, which can run commands', node.text);
      return;
    }
    if (node.type === 'declaration_command' && /^-[A-Za-z]*[in]/.test(value)) {
      markUnsafe(state, 'integer and reference variables evaluate assigned values as arithmetic or names, which can run commands', node.text);
      return;
    }
  }
}

function containsType(node: Node, types: string[]): boolean {
  return node.descendantsOfType(types).length > 0;
}

function checkAssignments(node: Node, state: State): void {
  const assignments =
    node.type === 'variable_assignment' ? [node] : node.descendantsOfType('variable_assignment');
  for (const assignment of assignments) {
    if (!assignment) continue;
    const nameNode = assignment.childForFieldName('name');
    const name = nameNode?.text ?? '';
    if (nameNode?.type === 'subscript' && !/^\d+$/.test(nameNode.childForFieldName('index')?.text ?? '')) {
      markUnsafe(state, 'an array subscript is evaluated as arithmetic, which can run commands', assignment.text);
    }
    checkVariableName(name.replace(/\[.*$/s, ''), assignment.text, state);
  }
}

function checkVariableName(name: string, text: string, state: State): void {
  if (DANGEROUS_VARIABLE.test(name))
    markUnsafe(state, `setting ${name} changes which program runs or what it loads`, text);
}

function visitRedirect(node: Node, state: State, scope: Scope, redirects: ShellRedirect[]): void {
  if (node.type === 'file_redirect') {
    const destination = node.childForFieldName('destination');
    const operator =
      node.children.find((child) => child !== null && !child.isNamed && /[<>]/.test(child.text))?.text ?? '>';
    if (!destination) {
      markUnsafe(state, 'a redirection without a target', node.text);
      return;
    }
    scanWords(node, state, scope);
    const target = resolveShellWord(destination);
    if ((operator === '>&' || operator === '<&') && (/^\d+-?$/.test(target.value) || target.value === '-'))
      return;
    if (!target.literal || target.glob) {
      markUnsafe(state, 'a redirection whose target is not a literal path', node.text);
      return;
    }
    const kind = operator === '<' ? 'read' : 'write';
    if (kind === 'write' && HARMLESS_WRITE_TARGETS.has(target.value)) return;
    redirects.push({ path: target.value, kind });
    return;
  }
  scanWords(node, state, scope);
  for (const child of node.namedChildren) {
    if (
      !child ||
      child.type === 'heredoc_body' ||
      WORD_TYPES.has(child.type) ||
      child.type.startsWith('heredoc_')
    )
      continue;
    if (REDIRECT_TYPES.has(child.type)) visitRedirect(child, state, scope, redirects);
    else visitStatement(child, state, scope);
  }
}

function visitCommand(node: Node, state: State, scope: Scope): void {
  const words: ShellWord[] = [];
  const redirects = [...scope.redirects];
  let stdinIsText = false;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'variable_assignment') {
      checkAssignments(child, state);
      scanWords(child, state, scope);
    } else if (REDIRECT_TYPES.has(child.type)) {
      if (child.type !== 'file_redirect') stdinIsText = true;
      visitRedirect(child, state, scope, redirects);
    } else if (child.type === 'command_name') {
      const nameNode = child.namedChildren[0];
      if (nameNode) words.push(resolveShellWord(nameNode));
      scanWords(child, state, scope);
    } else if (child.type === 'comment') {
    } else {
      words.push(resolveShellWord(child));
      scanNode(child, state, scope);
    }
  }
  const parentHasHeredoc =
    node.parent?.type === 'redirected_statement' &&
    node.parent.namedChildren.some(
      (child) => child?.type === 'heredoc_redirect' || child?.type === 'herestring_redirect',
    );
  analyzeWords(words, node.text, state, scope, redirects, stdinIsText || parentHasHeredoc);
}

function analyzeWords(
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
      markUnsafe(state, 'the command name is not a literal word (it comes from an expansion or a glob)', text);
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
      markUnsafe(state, 'a variable name with a subscript is evaluated as arithmetic, which can run commands', text);
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

function analyzeShellInvocation(
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
  analyzeSource(payload.value, state, {
    depth: scope.depth + 1,
    wrappers: [...scope.wrappers, `${program} -c`],
    outerArgv: [...scope.outerArgv, shellArgv],
    redirects,
  });
}

function addPathRedirect(
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

function changeDirectoryFor(program: string, args: ShellWord[], state: State): void {
  const operands = args.filter((word) => !/^-[LPe@]+$/.test(word.value) && word.value !== '--');
  if (program === 'popd' || operands.length !== 1) {
    const target = operands[0];
    if (program === 'cd' && operands.length === 0)
      changeDirectory(state, { value: process.env.HOME ?? '/', literal: true, glob: false });
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
function changeDirectory(state: State, target: ShellWord): void {
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

function recordCommand(
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
