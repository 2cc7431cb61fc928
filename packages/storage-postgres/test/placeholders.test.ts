import { expect, it } from 'vitest';
import { assertParameterCount, toPostgresPlaceholders } from '../src/placeholders.js';

it('numbers the placeholders of a statement in order', () => {
  expect(toPostgresPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toEqual({
    text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
    placeholders: 3,
  });
});

it('leaves question marks inside string literals, identifiers and comments alone', () => {
  const sql = `SELECT 'why?', 'it''s ?', "odd?col", x -- really?
    FROM t /* what? /* nested? */ still? */ WHERE y = ?`;
  const rewritten = toPostgresPlaceholders(sql);
  expect(rewritten.placeholders).toBe(1);
  expect(rewritten.text).toContain(`'why?', 'it''s ?', "odd?col", x -- really?`);
  expect(rewritten.text).toContain('/* what? /* nested? */ still? */ WHERE y = $1');
});

it('leaves question marks inside dollar-quoted bodies and escape strings alone', () => {
  const sql = `SELECT $$a?b$$, $tag$ ? $$ ? $tag$, E'it\\'s ?', ?`;
  const rewritten = toPostgresPlaceholders(sql);
  expect(rewritten).toEqual({ text: `SELECT $$a?b$$, $tag$ ? $$ ? $tag$, E'it\\'s ?', $1`, placeholders: 1 });
});

it('treats a backslash in an ordinary string as an ordinary character', () => {
  expect(toPostgresPlaceholders(`SELECT 'a\\', ?`)).toEqual({ text: `SELECT 'a\\', $1`, placeholders: 1 });
});

it('says how many placeholders and parameters disagreed', () => {
  expect(() => assertParameterCount('SELECT ?, ?', 2, 1)).toThrow(
    /2 \? placeholder\(s\) but was given 1 parameter\(s\)/,
  );
  expect(() => assertParameterCount('SELECT 1', 0, 0)).not.toThrow();
});
