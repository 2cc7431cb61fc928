import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reduceTerminalOutput, terminalReducer, terminalResultFromRaw, terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';
import { fixtureNames, loadFacts, loadFixture } from './fixtures.js';

const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

// A service log no recognizer knows: a health check polled thousands of times, one failure in the
// middle of it, and the shutdown at the end.
const SERVICE = `
for (let i = 0; i < 12000; i++) console.log('GET /health 200 1ms');
for (let i = 0; i < 300; i++) console.log('GET /orders/' + i + ' 200 ' + (i % 7) + 'ms');
console.log('ERROR orders: connection refused (db.internal:5432) at pool.js:88');
for (let i = 0; i < 8000; i++) console.log('GET /health 200 1ms');
for (let i = 300; i < 600; i++) console.log('GET /orders/' + i + ' 200 ' + (i % 7) + 'ms');
console.log('shutting down after SIGTERM');
`;

describe('an output no recognizer knows', () => {
  it('shows a repeated line once with its exact count, and keeps a failure from the cut middle', async () => {
    await writeFile(path.join(workspace.root, 'service.js'), SERVICE);
    const { ctx } = await createContext(workspace);
    const command = `${process.execPath} service.js`;
    const result = await Promise.resolve(terminalTool.execute({ command }, ctx));
    const reduced = textOf(terminalReducer.reduce(result, { toolName: 'terminal', args: { command } }));
    // The 12,000 polls before the failure are one line (the 8,000 after it are in the cut middle).
    expect(reduced).toContain('GET /health 200 1ms  [× 12,000]');
    expect(reduced).toContain('ERROR orders: connection refused (db.internal:5432) at pool.js:88');
    expect(reduced).toContain('shutting down after SIGTERM');
    // 20,602 printed lines, 603 once runs are collapsed. The first 60 stand for 12,059 printed
    // lines (the run and 59 orders), the last 60 for 60; of the 8,483 between, the failure is kept.
    expect(reduced).toContain(
      '[… 8,482 lines cut from the middle; kept from it: 1 line reporting a failure …]',
    );
    expect(reduced.length).toBeLessThan(8_000);
  });

  it('says a run may be longer when it reaches where the window cut the output and nothing was spilled', () => {
    const fixture = loadFixture('service-log-repeated');
    const result = terminalResultFromRaw(fixture);
    const reduced = textOf(
      terminalReducer.reduce(result, { toolName: 'terminal', args: { command: fixture.command } }),
    );
    expect(reduced).toMatch(/bytes cut from the middle; full output not kept/);
    expect(reduced).toMatch(/^GET \/health 200 1ms {2}\[× at least [\d,]+\]$/m);
    expect(reduced).not.toMatch(/^GET \/health 200 1ms {2}\[× [\d,]+\]$/m);
    // With the whole output (the capture), the run before the failure is exact and the failure kept.
    const whole = reduceTerminalOutput(fixture);
    expect(whole).toContain('GET /health 200 1ms  [× 5,000]');
    expect(whole).toContain('ERROR orders: connection refused (db.internal:5432) at pool.js:88');
  });

  it('returns a short output with a repeated line as printed', () => {
    const output = 'waiting\nwaiting\nwaiting\nready\n';
    expect(reduceTerminalOutput({ command: './poll', output, exitCode: 0 })).toBe(output);
  });
});

describe('line ends', () => {
  it('keeps every fact of every fixture when the output came with CRLF line ends (a pty, a Windows tool)', () => {
    const lost: string[] = [];
    for (const name of fixtureNames()) {
      const fixture = loadFixture(name);
      const output = fixture.output.replace(/\r?\n/g, '\r\n');
      const reduced = reduceTerminalOutput({ ...fixture, output });
      expect(Buffer.byteLength(reduced), name).toBeLessThanOrEqual(Buffer.byteLength(output));
      for (const { text } of loadFacts(name)) if (!reduced.includes(text)) lost.push(`${name}: ${text}`);
    }
    expect(lost).toEqual([]);
  });
});

describe("a process runner's log (concurrently, docker compose, turbo)", () => {
  // One tool's lines in the log of several processes, as each tool prints them: none of them may
  // make the whole log read as that tool's run and drop the other processes' failures.
  const intruders: Record<string, string[]> = {
    gcc: ['src/cart.c:14:7: error: incompatible types when assigning to type ‘int’'],
    rustc: ['error[E0308]: mismatched types', '  --> src/main.rs:4:18'],
    eslint: [
      '/app/src/cart.js',
      "  14:7  error  'x' is not defined  no-undef",
      '✖ 1 problem (1 error, 0 warnings)',
    ],
    mypy: ['src/cart.py:14: error: Incompatible types in assignment  [assignment]'],
    pytest: [
      'FAILED tests/test_cart.py::test_total - assert 3 == 4',
      '===== 1 failed, 20 passed in 0.3s =====',
    ],
    vitest: [
      ' FAIL  src/cart.test.ts > total',
      ' Test Files  1 failed (1)',
      '      Tests  1 failed | 9 passed (10)',
    ],
    jest: ['Tests:       1 failed, 9 passed, 10 total'],
    npm: ['npm ERR! code ELIFECYCLE', 'npm ERR! errno 1'],
    python: ['Traceback (most recent call last):', '  File "a.py", line 1, in <module>', 'ValueError: bad'],
    go: ['--- FAIL: TestTotal (0.00s)', 'FAIL\tshop/cart\t0.01s'],
    cargo: ['test result: FAILED. 1 passed; 1 failed; 0 ignored'],
  };
  const base = loadFixture('concurrently-dev-stack');
  const others = [
    '[worker] job 121 failed: TimeoutError',
    '[web] Error: connect ECONNREFUSED 127.0.0.1:5432',
    '[worker] node worker.js exited with code 1',
  ];
  for (const [tool, lines] of Object.entries(intruders)) {
    it(`keeps the other processes' failures and ${tool}'s own lines`, () => {
      const printed = base.output.split('\n');
      const output = [
        ...printed.slice(0, 60),
        ...lines.map((line) => `[build] ${line}`),
        ...printed.slice(61),
      ].join('\n');
      const reduced = reduceTerminalOutput({ command: base.command, output, exitCode: 1 });
      for (const line of others) expect(reduced).toContain(line);
      for (const line of lines) expect(reduced).toContain(line.trim());
    });
  }
});
