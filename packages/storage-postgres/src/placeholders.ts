import { QuiverError } from '@quiver/types';

const DOLLAR_TAG = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/;
const IDENTIFIER_CHARACTER = /[A-Za-z0-9_$]/;

/** Index just past the quote that closes the literal opened at `start` (doubled quotes stay inside). */
function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let index = start + 1;
  while (index < sql.length) {
    const character = sql[index];
    if (backslashEscapes && character === '\\') {
      index += 2;
    } else if (character === quote) {
      if (sql[index + 1] !== quote) return index + 1;
      index += 2;
    } else {
      index += 1;
    }
  }
  return index;
}

// PostgreSQL block comments nest.
function skipBlockComment(sql: string, start: number): number {
  let depth = 0;
  let index = start;
  while (index < sql.length) {
    if (sql.startsWith('/*', index)) {
      depth += 1;
      index += 2;
    } else if (sql.startsWith('*/', index)) {
      depth -= 1;
      index += 2;
      if (depth === 0) return index;
    } else {
      index += 1;
    }
  }
  return index;
}

export interface RewrittenStatement {
  text: string;
  /** How many `?` placeholders the statement had. */
  placeholders: number;
}

/**
 * Rewrites the `?` placeholders of a portable statement to PostgreSQL's `$1`, `$2`, … in order,
 * leaving alone every `?` inside a string literal (`'…'`, `E'…'`), a quoted identifier, a
 * dollar-quoted body or a comment.
 */
export function toPostgresPlaceholders(sql: string): RewrittenStatement {
  let text = '';
  let placeholders = 0;
  let index = 0;
  while (index < sql.length) {
    const character = sql[index] as string;
    let end = index + 1;
    if (character === "'") {
      const previous = sql[index - 1];
      const escaped =
        (previous === 'E' || previous === 'e') && !IDENTIFIER_CHARACTER.test(sql[index - 2] ?? ' ');
      end = skipQuoted(sql, index, "'", escaped);
    } else if (character === '"') {
      end = skipQuoted(sql, index, '"', false);
    } else if (character === '-' && sql[index + 1] === '-') {
      const newline = sql.indexOf('\n', index);
      end = newline === -1 ? sql.length : newline;
    } else if (character === '/' && sql[index + 1] === '*') {
      end = skipBlockComment(sql, index);
    } else if (character === '$' && !IDENTIFIER_CHARACTER.test(sql[index - 1] ?? ' ')) {
      const tag = DOLLAR_TAG.exec(sql.slice(index))?.[0];
      if (tag !== undefined) {
        const close = sql.indexOf(tag, index + tag.length);
        end = close === -1 ? sql.length : close + tag.length;
      }
    } else if (character === '?') {
      placeholders += 1;
      text += `$${placeholders}`;
      index += 1;
      continue;
    }
    text += sql.slice(index, end);
    index = end;
  }
  return { text, placeholders };
}

/** Throws `input_invalid` when a statement's `?` count and its parameters disagree. */
export function assertParameterCount(sql: string, placeholders: number, parameters: number): void {
  if (placeholders === 0 || placeholders === parameters) return;
  throw new QuiverError(
    'input_invalid',
    `The statement has ${placeholders} ? placeholder(s) but was given ${parameters} parameter(s): ${sql.slice(0, 200)}`,
    {
      fix: 'Pass exactly one parameter per ? (a ? inside quotes or comments is not a placeholder).',
      details: { placeholders, parameters },
    },
  );
}
