import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { loadFixture } from './fixtures.js';

const BUDGET_WITH_A_TENTH = 4_400;

function reduced(name: string): { output: string; reduced: string } {
  const fixture = loadFixture(name);
  return { output: fixture.output, reduced: reduceTerminalOutput(fixture) };
}

describe('an output no recognizer knows, over the budget but under 8 KB', () => {
  it('is cut to the budget, its ends sharing it (ps, python -m cProfile)', () => {
    for (const name of ['ps-processes-table', 'python-cprofile']) {
      const { output, reduced: text } = reduced(name);
      expect(output.length).toBeLessThan(8 * 1024);
      expect(text.length).toBeLessThanOrEqual(BUDGET_WITH_A_TENTH);
      const lines = output.trimEnd().split('\n');
      for (const line of [...lines.slice(0, 5), ...lines.slice(-3)]) expect(text).toContain(line);
    }
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

  it('leaves a listing of paths whole, each row a record whose path is its key (unzip -l, pytest --collect-only)', () => {
    for (const name of ['unzip-list', 'pytest-collect-only']) {
      const { output, reduced: text } = reduced(name);
      expect(text).toBe(output);
    }
  });

  it("keeps a tree's first two levels: each record and what it is directly under (npm explain)", () => {
    const { output, reduced: text } = reduced('npm-explain-shared');
    expect(text.length).toBeLessThanOrEqual(BUDGET_WITH_A_TENTH);
    const dependents = output.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(dependents.length).toBeGreaterThan(10);
    for (const line of dependents) expect(text).toContain(line.trim());
  });
});
