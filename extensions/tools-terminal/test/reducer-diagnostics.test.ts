import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { expectSmallerKeeping } from './expect-reduced.js';
import { loadFixture } from './fixtures.js';

describe('compiler and checker reduction', () => {
  it("lists javac's errors once each with every place, the symbol not found, and javac's own count", () => {
    const reduced = expectSmallerKeeping('javac-many-errors', [
      'incompatible types: String cannot be converted to int (25×): src/Item1.java:4, src/Item10.java:4',
      'cannot find symbol (method undefinedCall()) (25×)',
      'only showing the first 100 errors, of 120 total',
    ]);
    expect(reduced).not.toContain('^');
  });

  it('knows a compiler it does not name by its `file:line: error:` lines (a build script running javac)', () => {
    const fixture = loadFixture('javac-many-errors');
    const named = reduceTerminalOutput(fixture);
    expect(named).toContain('cannot find symbol (method undefinedCall()) (25×)');
    expect(reduceTerminalOutput({ ...fixture, command: './build.sh' })).toBe(named);
  });

  it('puts each rust error and warning on one line with its location, without code frames and help', () => {
    const reduced = expectSmallerKeeping('cargo-build-errors', [
      'src/lib.rs:6:69: error[E0277]: cannot add `&str` to `i64`',
      'src/lib.rs:7:40: error[E0609]: no field `owner_name` on type `&Ledger`',
      'src/lib.rs:12:58: error[E0308]: mismatched types',
      'src/lib.rs:10:30: warning: unused variable: `count`',
      'error: could not compile `ledger` (lib) due to 3 previous errors; 1 warning emitted',
    ]);
    expect(reduced).not.toContain('/rustc/');
    expect(reduced).not.toContain('help:');
    expect(reduced).not.toMatch(/^\s*\d+ \|/m);
  });

  it('keeps the warnings of a cargo build that succeeded', () => {
    expectSmallerKeeping('cargo-build-warnings', [
      'src/lib.rs:8:4: warning: function `legacy_fee` is never used',
      'Finished `dev` profile',
    ]);
  });

  it('keeps the compiler errors and the make target that failed, without the code frames', () => {
    const reduced = expectSmallerKeeping('make-compile-error', [
      'main.c:2:39: error: expected ‘;’ before ‘}’ token',
      'main.c:3:54: error: ‘undefined_value’ undeclared',
      'make: *** [Makefile:6: main.o] Error 1',
    ]);
    expect(reduced).not.toContain('cc -Wall');
    expect(reduced).not.toContain('note: each undeclared identifier');
  });

  it('keeps the undefined symbol of a failed link', () => {
    const reduced = expectSmallerKeeping('make-link-error', [
      "undefined reference to `report'",
      'make: *** [Makefile:4: shop] Error 1',
    ]);
    expect(reduced).not.toContain('cc -o shop');
  });

  it('keeps every mypy error and drops its notes', () => {
    const reduced = expectSmallerKeeping('mypy-errors-summary', [
      'app/billing.py:10: error: Unsupported operand types for + ("str" and "None")  [operator]',
      'app/shipping.py:6: error: "Dict[str, int]" has no attribute "dispatch"  [attr-defined]',
      'Found 6 errors in 2 files (checked 3 source files)',
    ]);
    expect(reduced).not.toContain('note:');
  });

  it('keeps a go build error list whole: every line is a located error', () => {
    const fixture = loadFixture('go-build-errors');
    expect(reduceTerminalOutput(fixture)).toBe(fixture.output.trimEnd());
  });
});

describe('ruff reduction', () => {
  it('lists a rule broken in many files once, with every place and the name it is about', () => {
    const reduced = expectSmallerKeeping('ruff-check', [
      'F401 [*] … imported but unused (24×): shop/handler_1.py:1:8 `os`, shop/handler_1.py:2:8 `sys`',
      'F841 Local variable `value` is assigned to but never used (12×): shop/handler_1.py:7:5',
      'shop/syntax_error.py:1:12: invalid-syntax: Expected a parameter or the end of the parameter list',
      'Found 62 errors.',
    ]);
    expect(reduced).not.toContain('help:');
    expect(reduced.length).toBeLessThan(loadFixture('ruff-check').output.length / 10);
  });

  it('reads the concise format the same way as the full one', () => {
    const full = reduceTerminalOutput(loadFixture('ruff-check'));
    expect(reduceTerminalOutput(loadFixture('ruff-check-concise'))).toBe(full);
  });
});

describe('eslint reduction', () => {
  it('groups problems by rule and message and lists every place each occurs', () => {
    const reduced = expectSmallerKeeping('eslint-errors', [
      '✖ 161 problems (121 errors, 40 warnings)',
      'in /tmp/project/js-project/:',
      "error no-undef 'undefinedLogger' is not defined (40×): src/handler-1.js:2:36, src/handler-10.js:2:37",
      "error no-unused-vars '…' is defined but never used (40×): src/handler-1.js:1:35 'unused1'",
      "src/handler-17.js:1:36 'unused17'",
      "warning eqeqeq Expected '===' and instead saw '==' (40×)",
      'error Parsing error: Unexpected token (1×): src/syntax-error.js:2:1',
    ]);
    expect(reduced.length).toBeLessThan(loadFixture('eslint-errors').output.length / 2);
    expect(reduced.match(/is not defined/g)).toHaveLength(1);
  });
});
