import type { Node } from 'web-tree-sitter';
import { checkVariableName, markUnsafe, recordCommand, type Scope, type State } from './analysis-state.js';
import { loadBashParser } from './bash-parser.js';
import { crossCheck } from './cross-check.js';
import type { ShellAnalysis, ShellRedirect } from './shell-analysis.js';
import {
  CONTAINER_TYPES,
  HARMLESS_WRITE_TARGETS,
  isPlainParameterExpansion,
  MAX_DEPTH,
  REDIRECT_TYPES,
  SUBSTITUTION_TYPES,
  WORD_TYPES,
} from './shell-syntax.js';
import { resolveShellWord, type ShellWord } from './shell-word.js';
import { analyzeWords } from './simple-command.js';
import { readProvableShell } from './strict-reader.js';

/**
 * Parses `command` with a real bash grammar and lists every simple command it would run,
 * including those inside lists, pipelines, compound statements, substitutions and `bash -c`.
 */
export async function analyzeShellCommand(command: string): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  const state: State = {
    parser,
    nesting: 0,
    analyzeSource,
    analysis: { commands: [], unsafe: [], unproven: [] },
    workingDirectories: ['.'],
    source: command,
  };
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
    // Bash joins `r\<newline>m` into one word; the grammar splits it, so the words it reports would be wrong.
    if (/[^\s]\\\r?\n[^\s]/.test(source)) {
      markUnsafe(
        state,
        'a line continuation inside a word is read differently by bash and by the parser',
        source,
      );
    }
    proveSubset(source, tree.rootNode, state, scope);
    visitStatement(tree.rootNode, state, scope);
  } finally {
    tree.delete();
  }
}

/** Reads the source again with the strict reader; what it cannot account for, or reads differently, is unproven. */
function proveSubset(source: string, root: Node, state: State, scope: Scope): void {
  const reading = readProvableShell(source);
  const unproven = reading.proven ? crossCheck(root, reading.commands) : reading;
  if (!unproven) return;
  const { start, end } = scope.origin ?? unproven;
  state.analysis.unproven.push({
    construct: unproven.construct,
    start,
    end,
    text: (scope.origin ? state.source : source).slice(start, end),
  });
}

function visitStatement(node: Node, state: State, scope: Scope): void {
  nested(node, state, () => visitStatementBody(node, state, scope));
}

function visitStatementBody(node: Node, state: State, scope: Scope): void {
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
      if (node.type === 'declaration_command' || node.type === 'unset_command')
        checkVariableNameArguments(node, state);
      checkAssignments(node, state);
      scanWords(node, state, scope);
      return;
    case 'test_command':
      if (
        containsType(node, ['simple_expansion', 'expansion', 'arithmetic_expansion']) ||
        /[[$`]/.test(node.text.slice(2, -2))
      ) {
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
  else if (REDIRECT_TYPES.has(child.type)) {
    // A redirect standing alone (`$(<file)`) still reads or writes its target.
    const redirects = [...scope.redirects];
    visitRedirect(child, state, scope, redirects);
    if (redirects.length > scope.redirects.length)
      recordCommand(state, scope, [], child.text, redirects, false);
  } else visitStatement(child, state, scope);
}

/** Bounds recursion so that absurdly nested input is reported instead of overflowing the stack. */
function nested(node: Node, state: State, visit: () => void): void {
  if (state.nesting >= MAX_NESTING) {
    if (!state.analysis.unsafe.some((entry) => entry.reason === TOO_DEEP))
      markUnsafe(state, TOO_DEEP, node.text);
    return;
  }
  state.nesting++;
  try {
    visit();
  } finally {
    state.nesting--;
  }
}

const MAX_NESTING = 200;
const TOO_DEEP = 'the command is nested too deeply to check';

/** Finds substitutions inside words: they are unsafe, and the commands inside them are still checked. */
function scanWords(node: Node, state: State, scope: Scope): void {
  for (const child of node.namedChildren) {
    if (child) scanNode(child, state, scope);
  }
}

function scanNode(node: Node, state: State, scope: Scope): void {
  nested(node, state, () => scanNodeBody(node, state, scope));
}

function scanNodeBody(node: Node, state: State, scope: Scope): void {
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
    markUnsafe(
      state,
      'a parameter expansion with a subscript, an offset, indirection or a transformation can run commands',
      node.text,
    );
  }
  scanWords(node, state, scope);
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

function checkVariableNameArguments(node: Node, state: State): void {
  const words = node.namedChildren.filter(
    (child): child is Node => child !== null && child.type !== 'variable_assignment',
  );
  for (const word of words) {
    const value = resolveShellWord(word).value;
    if (value.includes('[')) {
      markUnsafe(
        state,
        'a variable name with a subscript is evaluated as arithmetic, which can run commands',
        node.text,
      );
      return;
    }
    if (node.type === 'declaration_command' && /^-[A-Za-z]*[in]/.test(value)) {
      markUnsafe(
        state,
        'integer and reference variables evaluate assigned values as arithmetic or names, which can run commands',
        node.text,
      );
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
      markUnsafe(
        state,
        'an array subscript is evaluated as arithmetic, which can run commands',
        assignment.text,
      );
    }
    checkVariableName(name.replace(/\[.*$/s, ''), assignment.text, state);
  }
}
