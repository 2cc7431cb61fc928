import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput, terminalReducer, terminalResultFromRaw } from '../src/index.js';
import { loadFixture } from './fixtures.js';

function reduceFixture(name: string): { reduced: string; original: string } {
  const fixture = loadFixture(name);
  return { reduced: reduceTerminalOutput(fixture), original: fixture.output };
}

function expectSmallerKeeping(name: string, facts: (string | RegExp)[]): string {
  const { reduced, original } = reduceFixture(name);
  expect(reduced.length).toBeLessThan(original.length);
  for (const fact of facts) {
    if (typeof fact === 'string') expect(reduced).toContain(fact);
    else expect(reduced).toMatch(fact);
  }
  return reduced;
}

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

describe('TypeScript compiler reduction', () => {
  const everyError = [
    'src/index.ts(2,3)',
    'src/index.ts(4,7)',
    'src/index.ts(5,7)',
    'src/index.ts(6,8)',
    "src/index.ts(7,1): error TS2304: Cannot find name 'missingFunction'.",
    'src/user.ts(2,42): error TS2353',
    "src/user.ts(3,35): error TS2339: Property 'nmae' does not exist on type 'User'.",
  ];

  it('keeps every error with its file, line and code, folding the repeated message', () => {
    const reduced = expectSmallerKeeping('tsc-errors', [
      ...everyError,
      "error TS2322: Type 'string' is not assignable to type 'number'. (4×)",
    ]);
    expect(reduced.match(/Type 'string' is not assignable/g)).toHaveLength(1);
  });

  it('reads the pretty form and drops its code frames', () => {
    const reduced = expectSmallerKeeping('tsc-errors-pretty', [...everyError, 'Found 7 errors in 2 files.']);
    expect(reduced).not.toContain('~~~~');
  });
});

describe('git reduction', () => {
  it('counts git status changes by kind and names files up to a limit', () => {
    const reduced = expectSmallerKeeping('git-status', [
      'On branch main',
      'staged (1): modified file-2.txt',
      'not staged (27)',
      'deleted file-3.txt',
      'untracked (1): notes.md',
      '… and 7 more',
    ]);
    expect(reduced).not.toContain('use "git restore');
  });

  it('counts porcelain status entries', () => {
    expectSmallerKeeping('git-status-porcelain', [
      'staged (1): M file-2.txt',
      'not staged (27)',
      'D file-3.txt',
      'untracked (1): notes.md',
    ]);
  });

  it('keeps the diff stat summary and the first files', () => {
    expectSmallerKeeping('git-diff-stat', [
      '27 files changed, 26 insertions(+), 1 deletion(-)',
      'file-1.txt',
      '… and 7 more files',
    ]);
  });

  it('turns git log into one line per commit', () => {
    const reduced = expectSmallerKeeping('git-log', [
      '6 commits:',
      'Add thirty modules (Ada)',
      'Add file 1 (Ada)',
    ]);
    expect(reduced).not.toContain('Date:');
  });
});

describe('install reduction', () => {
  it('keeps the 404 and the missing package name when npm install fails', () => {
    const reduced = expectSmallerKeeping('npm-install-missing', [
      'E404',
      'quiver-package-that-does-not-exist-7d3f',
    ]);
    expect(reduced).not.toContain('Unknown user config');
  });

  it('keeps the version that does not exist when npm cannot find it', () => {
    expectSmallerKeeping('npm-install-bad-version', [
      'ETARGET',
      'No matching version found for is-number@99.0.0',
    ]);
  });

  it('keeps the summary of a successful npm install', () => {
    expectSmallerKeeping('npm-install', ['added 2 packages']);
  });

  it('keeps the pnpm error code and the package it could not fetch', () => {
    expectSmallerKeeping('pnpm-add-missing', [
      'ERR_PNPM_FETCH_404',
      'quiver-package-that-does-not-exist-7d3f',
    ]);
  });

  it('keeps what pnpm added and drops its progress lines', () => {
    const reduced = expectSmallerKeeping('pnpm-add', ['+ is-number 7.0.0', 'Done in']);
    expect(reduced).not.toContain('Progress:');
  });

  it('keeps the package yarn could not find', () => {
    const reduced = expectSmallerKeeping('yarn-add-missing', [
      'Couldn\'t find package "quiver-package-that-does-not-exist-7d3f"',
    ]);
    expect(reduced).not.toContain('No license field');
  });

  it('keeps what yarn added', () => {
    const reduced = expectSmallerKeeping('yarn-add', ['is-number@7.0.0', 'Done in']);
    expect(reduced).not.toContain('[2/4] Fetching packages');
  });

  it('keeps the pip errors naming the missing distribution', () => {
    const reduced = expectSmallerKeeping('pip-install-missing', [
      'No matching distribution found for quiver-package-that-does-not-exist-7d3f',
    ]);
    expect(reduced).not.toContain('Looking in indexes');
  });

  it('does not treat the output of other npm commands as an install', () => {
    const fixture = loadFixture('npm-install-missing');
    expect(
      reduceTerminalOutput({ ...fixture, command: 'npm view quiver-package-that-does-not-exist-7d3f' }),
    ).toBe(fixture.output);
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
    expect(text.startsWith('[exit code 1]\nvitest: 3 failing tests')).toBe(true);
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
    const tiny = terminalResultFromRaw({ command: 'git status', output: 'x', exitCode: 0 });
    expect(terminalReducer.reduce(tiny, { toolName: 'terminal', args: { command: 'git status' } })).toEqual(
      tiny,
    );
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
