import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput, terminalReducer, terminalResultFromRaw } from '../src/index.js';
import { expectSmallerKeeping } from './expect-reduced.js';
import { loadFixture } from './fixtures.js';

describe('test run reduction', () => {
  it('keeps the failing test names, their errors and the summary when a vitest run fails', () => {
    const reduced = expectSmallerKeeping('vitest-fail', [
      'math.test.js > math > multiplies numbers',
      'expected 6 to be 7',
      'math.test.js:3:50',
      'math.test.js > math > divides numbers',
      'strings.test.js > throws on a missing file',
      'ENOENT: no such file or directory',
      'Tests  3 failed | 2 passed (5)',
    ]);
    expect(reduced).not.toContain('uppercases a word');
  });

  it('reduces a passing vitest run to its summary', () => {
    const reduced = expectSmallerKeeping('vitest-pass', ['Tests  3 passed (3)']);
    expect(reduced.split('\n').length).toBeLessThanOrEqual(3);
  });

  it('keeps the failing test names and expectations when a jest run fails', () => {
    expectSmallerKeeping('jest-fail', [
      'dequeues in order',
      'Expected: 2',
      'Received: 1',
      'queue.test.js:2:58',
      'reports its size',
      'Tests:       2 failed, 1 passed, 3 total',
    ]);
  });

  it('counts a jest failure once when jest lists it again under "Summary of all failing tests", under the file it failed in', () => {
    const reduced = expectSmallerKeeping('jest-verbose-nested', [
      'Tests:       5 failed, 445 passed, 450 total',
    ]);
    // The count agrees with jest's own: five tests failed, each printed twice.
    expect(reduced).toMatch(/^jest: 5 failures$/m);
    expect(reduced).not.toContain('(2×)');
    expect(reduced).toMatch(/^FAIL suite\/module17\.test\.js\n✗ module17 › save › case 2$/m);
  });

  it('reduces a passing jest run to its summary', () => {
    expectSmallerKeeping('jest-pass', ['Tests:       3 passed, 3 total']);
  });

  it("keeps the failing tests and their locations when node's test runner fails", () => {
    const reduced = expectSmallerKeeping('node-test-fail', [
      'applies the discount code',
      '90 !== 85',
      'cart.test.mjs:4:1',
      'rejects an expired card',
      'card.expiry is undefined',
      '# fail 2',
    ]);
    expect(reduced).not.toContain('adds an item to the cart');
    expect(reduced).not.toContain('processPendingSubtests');
  });

  it("keeps the failing tests when node's test runner uses the spec reporter", () => {
    const reduced = expectSmallerKeeping('node-test-spec-fail', [
      'applies the discount code',
      '90 !== 85',
      'cart.test.mjs:4:50',
      'rejects an expired card',
      'card.expiry is undefined',
      'ℹ fail 2',
    ]);
    expect(reduced).not.toContain('processPendingSubtests');
    expect(reduced).not.toContain('generatedMessage');
  });

  it('reduces a passing node --test run to its counts', () => {
    expectSmallerKeeping('node-test-pass', ['# pass 3', '# fail 0']);
  });

  it('keeps every failing pytest test with its assertion and line', () => {
    expectSmallerKeeping('pytest-fail', [
      'test_inventory.py::InventoryTest::test_restock_rejects_negative',
      'AssertionError: -1 != 2',
      'test_inventory.py:11',
      'test_inventory.py::InventoryTest::test_sku_lookup',
      "KeyError: 'sku-42'",
      'test_inventory.py::test_plain_function_fails',
      '3 failed, 2 passed',
    ]);
  });

  it('keeps the failing tests of a quiet pytest run', () => {
    expectSmallerKeeping('pytest-quiet-fail', [
      'test_inventory.py::InventoryTest::test_sku_lookup',
      "KeyError: 'sku-42'",
      'test_inventory.py::test_plain_function_fails',
      '3 failed, 2 passed',
    ]);
  });

  it('reduces a passing pytest run to its summary line', () => {
    const reduced = expectSmallerKeeping('pytest-pass', ['2 passed, 3 deselected']);
    expect(reduced).not.toContain('platform linux');
  });

  it('keeps failing unittest cases with the raising line and exception', () => {
    expectSmallerKeeping('unittest-fail', [
      'test_sku_lookup',
      'line 14',
      "KeyError: 'sku-42'",
      'test_restock_rejects_negative',
      'AssertionError: -1 != 2',
      'FAILED (failures=1, errors=1)',
    ]);
  });

  it('keeps the panicking tests and the result line when cargo test fails', () => {
    const reduced = expectSmallerKeeping('cargo-test-fail', [
      'tests::handles_refunds',
      'src/lib.rs:9:28',
      'left: 6',
      'tests::overflow_panics',
      'ledger overflow at entry 3',
      'test result: FAILED. 2 passed; 2 failed',
    ]);
    expect(reduced).not.toContain('stack backtrace');
    expect(reduced).not.toContain('rust_begin_unwind');
  });

  it('reduces a passing cargo test run to its result line', () => {
    expectSmallerKeeping('cargo-test-pass', ['test result: ok. 4 passed']);
  });
});

describe('test runs of other runners', () => {
  it('keeps the message of a pytest setup error and a teardown error', () => {
    expectSmallerKeeping('pytest-setup-errors-no-summary', [
      '✗ ERROR at setup of test_orders_are_saved\n  ConnectionError: could not connect to postgres at localhost:5432',
      '✗ ERROR at teardown of test_cache_is_warm\n  RuntimeError: cache teardown left 3 open handles',
    ]);
  });

  it('keeps a pytest collection error with the module it could not import', () => {
    expectSmallerKeeping('pytest-errors-verbose', [
      "✗ ERROR tests/test_broken_import.py\n  ModuleNotFoundError: No module named 'shop'",
      'ERROR tests/test_orders.py::test_orders_are_saved - ConnectionError',
      '3 failed, 4 passed, 3 errors',
    ]);
  });

  it('finds the messages of go tests printed before their verdict with -v', () => {
    const reduced = expectSmallerKeeping('go-test-verbose-fail', [
      '✗ TestDiscount\n  store_test.go:13: Discount(200, 10) = 180, want 170',
      '✗ TestDiscountTable/percent#02\n  store_test.go:22: Discount(100, 25) = 75, want 70',
      '✗ TestPanicsOnNil\n  panic: assignment to entry in nil map',
      '/tmp/project/gomodule/store/store_test.go:30',
    ]);
    expect(reduced).not.toContain('=== RUN');
    expect(reduced).not.toContain('testing.tRunner');
  });

  it('recognizes go test run by make and keeps the target that failed', () => {
    const reduced = expectSmallerKeeping('make-go-test-fail', [
      'go test: 4 failures',
      '✗ TestDiscount\n  store_test.go:13: Discount(200, 10) = 180, want 170',
      'make: *** [Makefile:2: test] Error 1',
    ]);
    expect(reduced).not.toContain('goroutine');
  });

  it('keeps the failing mocha tests with their suite path, error and own stack frame', () => {
    const reduced = expectSmallerKeeping('mocha-fail', [
      '✗ cart › applies the discount\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n  90 !== 85',
      '✗ cart › checkout › charges the card\n  TypeError: card.number is undefined\n  at Context.<anonymous> (test/cart.spec.js:6:42)',
      '3 failing',
    ]);
    expect(reduced).not.toContain('node:internal');
  });

  it('keeps a vitest suite that failed to load next to the failing tests', () => {
    expectSmallerKeeping('vitest-suite-error', [
      "✗ broken-import.test.js [ broken-import.test.js ]\n  Error: Cannot find module './not-here.js'",
      '✗ parser.test.js > parser > parses dates',
    ]);
  });

  it('keeps every failing test and its first error line when the budget is small', () => {
    const fixture = loadFixture('vitest-many-failures');
    const reduced = reduceTerminalOutput({ ...fixture, budget: 500 });
    for (const amount of [1, 20, 40]) {
      expect(reduced).toContain(
        `✗ amount-${amount}.test.js > formats amount ${amount}\n  AssertionError: expected '${amount}.00' to be '${amount}.0'`,
      );
    }
    expect(reduced).not.toContain('Received:');
  });
});

describe('TypeScript compiler reduction', () => {
  it('keeps every error with its file, line and code, folding the repeated message', () => {
    const reduced = expectSmallerKeeping('tsc-errors', [
      'src/index.ts(2,3)',
      'src/index.ts(4,7)',
      'src/index.ts(5,7)',
      'src/index.ts(6,8)',
      "src/index.ts(7,1): error TS2304: Cannot find name 'missingFunction'.",
      'src/user.ts(2,42): error TS2353',
      "src/user.ts(3,35): error TS2339: Property 'nmae' does not exist on type 'User'.",
      "error TS2322: Type 'string' is not assignable to type 'number'. (4×)",
    ]);
    expect(reduced.match(/Type 'string' is not assignable/g)).toHaveLength(1);
  });

  it('reads the pretty form, keeps its locations as printed and drops its code frames', () => {
    const reduced = expectSmallerKeeping('tsc-errors-pretty', [
      'at src/index.ts:2:3, src/index.ts:4:7, src/index.ts:5:7, src/index.ts:6:8',
      "src/index.ts:7:1 - error TS2304: Cannot find name 'missingFunction'.",
      "src/user.ts:3:35 - error TS2339: Property 'nmae' does not exist on type 'User'.",
      'Found 7 errors in 2 files.',
    ]);
    expect(reduced).not.toContain('~~~~');
  });
});

describe('generic reduction', () => {
  it('keeps the head and tail of a long unrecognized output and says how many lines were cut', () => {
    const reduced = expectSmallerKeeping('seq-long', [
      /^1\n2\n3\n/,
      /\n5000$/,
      '[… 4,880 lines cut from the middle …]',
    ]);
    expect(reduced).not.toContain('\n2500\n');
  });

  it('leaves a short unrecognized output alone', () => {
    const output = 'hello\nworld\n';
    expect(reduceTerminalOutput({ command: 'echo hello; echo world', output, exitCode: 0 })).toBe(output);
  });
});

describe('terminalReducer', () => {
  it('reduces a failed run, keeping the header, the failure code and the structured data', () => {
    const fixture = loadFixture('vitest-fail');
    const result = terminalResultFromRaw(fixture);
    const reduced = terminalReducer.reduce(result, {
      toolName: 'terminal',
      args: { command: fixture.command },
    });
    expect(reduced).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(reduced.structured).toEqual(result.structured);
    const text = reduced.ok ? reduced.value : reduced.error;
    expect(text.startsWith('[exit code 1]\nvitest: 3 failures')).toBe(true);
    expect(text.length).toBeLessThan((result.ok ? result.value : result.error).length);
  });

  it('never returns more than it was given', () => {
    for (const name of ['vitest-pass', 'git-log', 'npm-install', 'tsc-errors', 'seq-long']) {
      const fixture = loadFixture(name);
      const result = terminalResultFromRaw(fixture);
      const reduced = terminalReducer.reduce(result, {
        toolName: 'terminal',
        args: { command: fixture.command },
      });
      const before = result.ok ? result.value : result.error;
      const after = reduced.ok ? reduced.value : reduced.error;
      expect(after.length).toBeLessThanOrEqual(before.length);
    }
  });

  it('builds the same result from raw output as the tool does, cutting the middle of a huge output', () => {
    const output = `${'a'.repeat(100_000)}\nthe end\n`;
    const result = terminalResultFromRaw({ command: 'cat big.log', output, exitCode: 0 });
    expect(result.ok).toBe(true);
    const text = result.ok ? result.value : '';
    expect(text).toMatch(/^\[exit code 0 · 97\.7 KB of output, middle cut\]\naaa/);
    expect(text).toContain('bytes cut from the middle; full output not kept');
    expect(text.endsWith('the end\n')).toBe(true);
    expect(result.structured).toMatchObject({
      command: 'cat big.log',
      exitCode: 0,
      truncated: true,
      outputBytes: output.length,
    });
  });
});

describe('what a terminal would show', () => {
  it('keeps only the last state of a line a progress display rewrote, and CRLF lines whole', () => {
    const progress = Array.from({ length: 200 }, (_, index) => `Downloading model: ${index / 2}%`).join('\r');
    const output = `step 1 of 2\r\n${progress}\rDownloading model: 100%, done.\r\nready\r\n`;
    const reduced = reduceTerminalOutput({ command: 'python3 fetch.py', output, exitCode: 0 });
    expect(reduced).toBe('step 1 of 2\nDownloading model: 100%, done.\nready\n');
  });

  it('drops colour codes even when nothing else recognizes the output', () => {
    const output =
      '\u001b[35m\u001b[Ksrc/a.ts\u001b[m\u001b[K:\u001b[32m\u001b[K3\u001b[m\u001b[K:  throw new Error()\n';
    expect(reduceTerminalOutput({ command: 'grep -rn --color=always throw src', output, exitCode: 0 })).toBe(
      'src/a.ts:3:  throw new Error()\n',
    );
  });
});
