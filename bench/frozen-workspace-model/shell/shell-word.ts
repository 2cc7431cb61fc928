import os from 'node:os';
import type { Node } from 'web-tree-sitter';

/** A shell word after quote removal, with what could not be resolved statically. */
export interface ShellWord {
  value: string;
  /** False when the word contains an expansion, substitution or brace expansion. */
  literal: boolean;
  /** True when the word has an unquoted glob character (`*`, `?`, `[`). */
  glob: boolean;
  /** Offsets of the word in the source it was read from. */
  start?: number;
  end?: number;
}

const DYNAMIC_NODE_TYPES = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
]);

/** Resolves quotes and escapes the way bash would, so `g'it'` and `"git"` both read `git`. */
export function resolveShellWord(node: Node): ShellWord {
  const word = { ...resolvePart(node), start: node.startIndex, end: node.endIndex };
  if (word.value.startsWith('~') && startsUnquoted(node)) {
    const slash = word.value.indexOf('/');
    const user = slash === -1 ? word.value.slice(1) : word.value.slice(1, slash);
    if (user === '') word.value = os.homedir() + (slash === -1 ? '' : word.value.slice(slash));
    else word.literal = false;
  }
  return word;
}

/** Only a `~` written bare at the start of the word expands (`\~` and `"~"` stay literal). */
function startsUnquoted(node: Node): boolean {
  if (node.type === 'word') return node.text.startsWith('~');
  if (node.type === 'concatenation') {
    const first = node.children[0];
    return first !== undefined && first !== null && first.type === 'word' && first.text.startsWith('~');
  }
  return false;
}

function resolvePart(node: Node): ShellWord {
  switch (node.type) {
    case 'word':
      return resolveUnquoted(node.text);
    case 'number':
      return { value: node.text, literal: true, glob: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), literal: true, glob: false };
    case 'ansi_c_string':
      return { value: decodeAnsiC(node.text.slice(2, -1)), literal: true, glob: false };
    case 'string':
    case 'translated_string':
      return resolveDoubleQuoted(node);
    case 'concatenation': {
      const parts = node.children.filter((child): child is Node => child !== null).map(resolvePart);
      return {
        value: parts.map((part) => part.value).join(''),
        literal: parts.every((part) => part.literal),
        glob: parts.some((part) => part.glob),
      };
    }
    default:
      return {
        value: node.text,
        literal: !DYNAMIC_NODE_TYPES.has(node.type) && isPlainToken(node),
        glob: false,
      };
  }
}

/** Anonymous tokens inside a concatenation (`{`, `}`, `,`) are plain text unless they form a brace expansion. */
function isPlainToken(node: Node): boolean {
  return !node.isNamed && !/[{}]/.test(node.text);
}

function resolveUnquoted(text: string): ShellWord {
  let value = '';
  let glob = false;
  let literal = true;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\\') {
      const next = text[index + 1];
      index++;
      if (next === undefined || next === '\n') continue;
      value += next;
      continue;
    }
    if (char === '*' || char === '?' || char === '[') glob = true;
    if (char === '$' || char === '`') literal = false;
    value += char;
  }
  if (/\{[^}]*(,|\.\.)[^}]*\}/.test(text)) literal = false;
  return { value, literal, glob };
}

function resolveDoubleQuoted(node: Node): ShellWord {
  const literal = node.namedChildren.every((child) => child !== null && child.type === 'string_content');
  const open = node.type === 'translated_string' ? 2 : 1;
  const inner = node.text.slice(open, -1);
  let value = '';
  for (let index = 0; index < inner.length; index++) {
    const char = inner[index] as string;
    const next = inner[index + 1];
    if (char === '\\' && next !== undefined && '"\\$`\n'.includes(next)) {
      index++;
      if (next !== '\n') value += next;
      continue;
    }
    value += char;
  }
  return { value, literal: literal && !/[$`]/.test(inner.replace(/\\./gs, '')), glob: false };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function decodeAnsiC(text: string): string {
  let value = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char !== '\\' || index + 1 >= text.length) {
      value += char;
      continue;
    }
    const next = text[index + 1] as string;
    index++;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      value += simple;
      continue;
    }
    const numeric = /^(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3})/.exec(
      text.slice(index),
    );
    if (numeric) {
      const digits = numeric[0];
      const code = /^[0-7]/.test(digits) ? Number.parseInt(digits, 8) : Number.parseInt(digits.slice(1), 16);
      value += String.fromCodePoint(code);
      index += digits.length - 1;
      continue;
    }
    if (next === 'c' && index + 1 < text.length) {
      value += String.fromCharCode((text.charCodeAt(index + 1) as number) & 0x1f);
      index++;
      continue;
    }
    value += `\\${next}`;
  }
  return value;
}
