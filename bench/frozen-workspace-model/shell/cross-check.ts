import type { Node } from 'web-tree-sitter';
import { resolveShellWord } from './shell-word.js';
import type { ReadCommand, UnprovenConstruct } from './strict-reader.js';

/** Named nodes a command of the provable subset may contain in the grammar's tree. */
const SUBSET_NODES = new Set([
  'program',
  'list',
  'pipeline',
  'command',
  'command_name',
  'redirected_statement',
  'comment',
  'variable_assignment',
  'variable_assignments',
  'variable_name',
  'file_redirect',
  'file_descriptor',
  'heredoc_redirect',
  'heredoc_start',
  'heredoc_body',
  'heredoc_end',
  'word',
  'number',
  'string',
  'string_content',
  'raw_string',
  'concatenation',
]);
const WORD_NODES = new Set(['word', 'number', 'string', 'raw_string', 'concatenation']);

interface TreeCommand {
  assignments: string[];
  words: string[];
  redirects: string[];
  start: number;
  end: number;
}

/**
 * Compares the grammar's tree with the strict reader's commands: the same commands in the same
 * order, the same words after quote removal, the same assignments and redirections. Returns the
 * first disagreement, or undefined when both read the command the same way.
 */
export function crossCheck(root: Node, commands: ReadCommand[]): UnprovenConstruct | undefined {
  const foreign = firstForeignNode(root);
  if (foreign)
    return {
      construct: `a "${foreign.type}" node in the bash grammar's reading`,
      start: foreign.startIndex,
      end: foreign.endIndex,
    };
  const found: TreeCommand[] = [];
  const loose: Array<{ start: number; text: string }> = [];
  const unexpected = collect(root, found, loose);
  if (unexpected)
    return {
      construct: `a "${unexpected.type}" node where the strict reader expects none`,
      start: unexpected.startIndex,
      end: unexpected.endIndex,
    };
  // The grammar hangs a redirection after a pipeline on the pipeline; bash gives it to the command it follows.
  found.sort((left, right) => left.start - right.start);
  for (const redirect of loose) {
    const owner = found.findLast((command) => command.start <= redirect.start);
    if (owner) owner.redirects.push(redirect.text);
    else
      found.unshift({
        assignments: [],
        words: [],
        redirects: [redirect.text],
        start: redirect.start,
        end: redirect.start,
      });
  }
  for (let index = 0; index < Math.max(found.length, commands.length); index++) {
    const tree = found[index];
    const read = commands[index];
    const start = read?.start ?? tree?.start ?? 0;
    const end = read?.end ?? tree?.end ?? start;
    if (!tree || !read)
      return { construct: 'a command the bash grammar and the strict reader split differently', start, end };
    const expected: TreeCommand = {
      assignments: read.assignments.map(({ name, value }) => `${name}=${value}`),
      words: read.words.map((word) => word.value),
      redirects: read.redirects.map(
        ({ descriptor, operator, target }) => `${descriptor ?? ''}${operator}${target}`,
      ),
      start,
      end,
    };
    if (!sameList(tree.words, expected.words) || !sameList(tree.assignments, expected.assignments))
      return { construct: 'words the bash grammar and the strict reader read differently', start, end };
    if (!sameList([...tree.redirects].sort(), [...expected.redirects].sort()))
      return {
        construct: 'redirections the bash grammar and the strict reader read differently',
        start,
        end,
      };
  }
  return undefined;
}

function sameList(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** Walks the tree in document order; returns the first node outside the subset. */
function collect(
  node: Node,
  found: TreeCommand[],
  loose: Array<{ start: number; text: string }>,
): Node | undefined {
  if (node.type === 'redirected_statement') {
    const body = node.childForFieldName('body');
    for (const child of node.namedChildren) {
      if (!child || (body && child.id === body.id)) continue;
      loose.push({ start: child.startIndex, text: describeRedirect(child) });
      // The grammar puts what follows `<<'EOF'` on its line (`| wc -l`, `&& ls`) inside the redirect.
      for (const inner of child.namedChildren) {
        if (!inner || inner.type.startsWith('heredoc_') || WORD_NODES.has(inner.type)) continue;
        if (inner.type === 'file_redirect') {
          loose.push({ start: inner.startIndex, text: describeRedirect(inner) });
          continue;
        }
        const nested = collect(inner, found, loose);
        if (nested) return nested;
      }
    }
    return body ? collect(body, found, loose) : undefined;
  }
  if (node.type === 'variable_assignment' || node.type === 'variable_assignments') {
    const assignments = node.type === 'variable_assignment' ? [node] : node.namedChildren;
    const command: TreeCommand = {
      assignments: [],
      words: [],
      redirects: [],
      start: node.startIndex,
      end: node.endIndex,
    };
    for (const assignment of assignments) {
      if (!assignment) continue;
      command.assignments.push(describeAssignment(assignment));
    }
    found.push(command);
    return undefined;
  }
  if (node.type === 'command') {
    const command: TreeCommand = {
      assignments: [],
      words: [],
      redirects: [],
      start: node.startIndex,
      end: node.endIndex,
    };
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') command.assignments.push(describeAssignment(child));
      else if (child.type === 'command_name') {
        const name = child.namedChildren[0];
        if (name) command.words.push(resolveShellWord(name).value);
      } else if (child.type === 'file_redirect' || child.type === 'heredoc_redirect')
        command.redirects.push(describeRedirect(child));
      else if (WORD_NODES.has(child.type)) command.words.push(resolveShellWord(child).value);
      else if (child.type !== 'comment') return child;
    }
    found.push(command);
    return undefined;
  }
  for (const child of node.namedChildren) {
    if (!child) continue;
    const foreign = collect(child, found, loose);
    if (foreign) return foreign;
  }
  return undefined;
}

/** One cursor pass over the whole tree (cheaper than materializing children): the first node outside the subset. */
function firstForeignNode(root: Node): Node | undefined {
  const cursor = root.walk();
  try {
    for (;;) {
      if (
        cursor.nodeIsMissing ||
        cursor.nodeType === 'ERROR' ||
        (cursor.nodeIsNamed && !SUBSET_NODES.has(cursor.nodeType))
      )
        return cursor.currentNode;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return undefined;
    }
  } finally {
    cursor.delete();
  }
}

function describeAssignment(node: Node): string {
  const value = node.childForFieldName('value');
  return `${node.childForFieldName('name')?.text ?? ''}=${value ? resolveShellWord(value).value : ''}`;
}

function describeRedirect(node: Node): string {
  if (node.type === 'heredoc_redirect') {
    const start = node.namedChildren.find((child) => child?.type === 'heredoc_start');
    return `<<${(start?.text ?? '').replace(/^(['"])(.*)\1$/s, '$2')}`;
  }
  const descriptor = node.childForFieldName('descriptor')?.text ?? '';
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.text ?? '';
  const destination = node.childForFieldName('destination');
  return `${descriptor}${operator}${destination ? resolveShellWord(destination).value : ''}`;
}
