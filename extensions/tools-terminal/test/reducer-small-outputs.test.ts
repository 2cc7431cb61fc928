import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { loadFixture } from './fixtures.js';

const BUDGET_WITH_A_TENTH = 4_400;

function reduced(name: string): { output: string; reduced: string } {
  const fixture = loadFixture(name);
  return { output: fixture.output, reduced: reduceTerminalOutput(fixture) };
}

describe('an output no recognizer knows, over the budget but under 8 KB', () => {
  it('is cut from the middle (pytest --collect-only, 7.9 KB)', () => {
    const { output, reduced: text } = reduced('pytest-collect-only');
    expect(output.length).toBeLessThan(8 * 1024);
    expect(text.length).toBeLessThan(output.length * 0.7);
    expect(text).toContain('cut from the middle');
  });

  it("keeps a test runner's ✘ failure lines and the error indented under one (ava)", () => {
    const { output, reduced: text } = reduced('ava-fail');
    expect(text.length).toBeLessThan(output.length);
    for (const line of output.split('\n').filter((line) => line.includes('✘ [fail]:')))
      expect(text).toContain(line.trim());
    expect(text).toContain("SyntaxError: Expected property name or '}' in JSON at position 1");
  });

  it("keeps each TAP failure's `not ok` line and its `#` diagnostics, got and expected (prove -v)", () => {
    const { output, reduced: text } = reduced('prove-verbose-fail');
    expect(text.length).toBeLessThan(output.length);
    expect(text).toContain('not ok 9 - 12-billing case 9');
    expect(text).toContain('#   at t/12-billing.t line 10.');
    expect(text).toContain("#          got: 'got-9'");
    expect(text).toContain("#     expected: 'want-9'");
  });

  it('keeps the location each doctest failure was printed under', () => {
    const { output, reduced: text } = reduced('python-doctest-verbose-fail');
    expect(text.length).toBeLessThan(output.length);
    const locations = output
      .split('\n')
      .filter((_line, index, lines) => lines[index + 1] === 'Failed example:');
    expect(locations).toHaveLength(3);
    for (const location of locations) expect(text).toContain(location);
  });

  it("keeps each record's key line of a listing of records (stat's File: lines)", () => {
    const { output, reduced: text } = reduced('stat-many-files');
    expect(text.length).toBeLessThanOrEqual(BUDGET_WITH_A_TENTH);
    const files = output.split('\n').filter((line) => line.startsWith('  File: '));
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) expect(text).toContain(file.trim());
  });

  it('leaves a listing of files whole, each row a record whose path is its key (unzip -l)', () => {
    const { output, reduced: text } = reduced('unzip-list');
    expect(text).toBe(output);
  });
});
