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
