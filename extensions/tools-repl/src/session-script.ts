import { createRequire } from 'node:module';
import type { Node, parse as Parse } from 'acorn';

/** acorn (230 KB) is read by the first script, not by every process that registers the tool. */
let parse: typeof Parse | undefined;
function acornParse(): typeof Parse {
  parse ??= (createRequire(import.meta.url)('acorn') as { parse: typeof Parse }).parse;
  return parse;
}

/** A script ready for the sandbox, or what is wrong with the source. */
export type PreparedScript =
  | {
      ok: true;
      /** `var` statements for the top-level names, to run at global scope. */
      declarations: string;
      /**
       * Without top-level `await` (or `return`): the statements, run as a global script whose
       * completion value is the result (as in a console: `try { … } catch (e) { e.message }`
       * yields the message). With one: an expression whose value is the promise of the result.
       */
      source: string;
      async: boolean;
    }
  | { ok: false; error: string };

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Pattern = Node & {
  type: string;
  name?: string;
  properties?: Array<Node & { type: string; value?: Pattern; argument?: Pattern }>;
  elements?: Array<Pattern | null>;
  argument?: Pattern;
  left?: Pattern;
};

/**
 * Turns one REPL input into a global script that runs it as an async function, so `await`
 * works at the top, while its top-level declarations (`let`, `const`, `var`, functions,
 * classes) become global bindings that the next input still sees. The value of a last
 * expression statement is returned. This is the rewrite Node's own REPL makes for top-level
 * await; `const` bindings become reassignable across inputs, as there.
 */
export function prepareScript(code: string): PreparedScript {
  let program: Node & { body: Array<Node & Record<string, unknown>> };
  try {
    program = acornParse()(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
    }) as unknown as typeof program;
  } catch (error) {
    return { ok: false, error: `SyntaxError: ${(error as Error).message}` };
  }
  const async = awaitsAtTop(program);
  const hoisted = new Set<string>();
  const edits: Edit[] = [];
  const prologue: string[] = [];
  const body = program.body;
  body.forEach((statement, index) => {
    const last = index === body.length - 1;
    switch (statement.type) {
      case 'VariableDeclaration': {
        const declarations = statement.declarations as Array<Node & { id: Pattern; init: Node | null }>;
        const parts = declarations.map((declaration) => {
          for (const name of boundNames(declaration.id)) hoisted.add(name);
          const target = code.slice(declaration.id.start, declaration.id.end);
          if (declaration.init === null)
            return statement.kind === 'var' ? undefined : `${target} = undefined`;
          return `(${target} = ${code.slice(declaration.init.start, declaration.init.end)})`;
        });
        const assignments = parts.filter((part) => part !== undefined);
        edits.push({
          start: statement.start,
          end: statement.end,
          text: assignments.length > 0 ? `void (${assignments.join(', ')});` : ';',
        });
        return;
      }
      case 'FunctionDeclaration': {
        // Left in place (hoisted as written); inside the async wrapper it is copied to the global.
        const name = (statement.id as Pattern).name as string;
        hoisted.add(name);
        if (async) prologue.push(`globalThis.${name} = ${name};`);
        return;
      }
      case 'ClassDeclaration': {
        const name = (statement.id as Pattern).name as string;
        hoisted.add(name);
        edits.push({
          start: statement.start,
          end: statement.end,
          text: `${name} = ${code.slice(statement.start, statement.end)};`,
        });
        return;
      }
      case 'ExpressionStatement': {
        if (!last || !async) return;
        const expression = statement.expression as Node;
        edits.push({
          start: statement.start,
          end: statement.end,
          text: `return (${code.slice(expression.start, expression.end)});`,
        });
        return;
      }
      default:
        return;
    }
  });
  let rewritten = code;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end);
  // Everything added goes on the script's first line, so line numbers in errors are the user's.
  return {
    ok: true,
    declarations: hoisted.size > 0 ? `var ${[...hoisted].join(', ')}; ` : '',
    source: async ? `(async () => { ${prologue.join(' ')} ${rewritten}\n})()` : rewritten,
    async,
  };
}

function boundNames(pattern: Pattern | null | undefined): string[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name as string];
    case 'ObjectPattern':
      return (pattern.properties ?? []).flatMap((property) =>
        property.type === 'RestElement' ? boundNames(property.argument) : boundNames(property.value),
      );
    case 'ArrayPattern':
      return (pattern.elements ?? []).flatMap((element) => boundNames(element));
    case 'RestElement':
      return boundNames(pattern.argument);
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    default:
      return [];
  }
}

const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** True when the input awaits or returns outside any function: it must run as an async function. */
function awaitsAtTop(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(awaitsAtTop);
  const typed = node as { type?: string; await?: boolean };
  if (typed.type !== undefined && FUNCTION_NODES.has(typed.type)) return false;
  if (typed.type === 'AwaitExpression' || typed.type === 'ReturnStatement') return true;
  if (typed.type === 'ForOfStatement' && typed.await === true) return true;
  return Object.entries(node).some(
    ([key, value]) => key !== 'type' && typeof value === 'object' && awaitsAtTop(value),
  );
}
