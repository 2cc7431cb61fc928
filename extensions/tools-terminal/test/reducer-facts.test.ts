import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput, terminalReducer, terminalResultFromRaw } from '../src/index.js';
import { stripAnsi } from '../src/reducers/reducer-input.js';
import { fixtureNames, loadFacts, loadFixture } from './fixtures.js';

const SMALL_BUDGET = 1_000;
const LARGE_OUTPUT_BYTES = 8 * 1024;

function resultText(result: { ok: boolean; value?: string; error?: string }): string {
  return (result.ok ? result.value : result.error) ?? '';
}

function reducedThroughTheTool(name: string): string {
  const fixture = loadFixture(name);
  const result = terminalResultFromRaw(fixture);
  return resultText(
    terminalReducer.reduce(result, { toolName: 'terminal', args: { command: fixture.command } }),
  );
}

describe('every captured fixture', () => {
  it('has a facts file', () => {
    const withFacts = new Set(fixtureNames().filter((name) => loadFacts(name).length > 0));
    expect(fixtureNames().filter((name) => !withFacts.has(name))).toEqual([]);
  });

  describe.each(fixtureNames())('%s', (name) => {
    const fixture = loadFixture(name);
    const facts = loadFacts(name);

    it('lists only facts the command printed', () => {
      const printed = stripAnsi(fixture.output);
      for (const { text } of facts) expect(printed).toContain(text);
    });

    it('keeps every fact at the default budget', () => {
      const reduced = reduceTerminalOutput(fixture);
      for (const { text } of facts) expect(reduced).toContain(text);
    });

    it('keeps every fact that does not depend on the budget at a small budget', () => {
      const reduced = reduceTerminalOutput({ ...fixture, budget: SMALL_BUDGET });
      for (const { text } of facts.filter((fact) => !fact.budgeted)) expect(reduced).toContain(text);
    });

    it('is never longer than what the command printed, header included', () => {
      expect(Buffer.byteLength(reducedThroughTheTool(name))).toBeLessThanOrEqual(
        Buffer.byteLength(fixture.output),
      );
    });
  });

  it('shrinks the outputs over 8 KB by at least 90% in aggregate, and grows none', () => {
    let raw = 0;
    let reduced = 0;
    for (const name of fixtureNames()) {
      const fixture = loadFixture(name);
      const size = Buffer.byteLength(reducedThroughTheTool(name));
      expect(size).toBeLessThanOrEqual(Buffer.byteLength(fixture.output));
      if (Buffer.byteLength(fixture.output) <= LARGE_OUTPUT_BYTES) continue;
      raw += Buffer.byteLength(fixture.output);
      reduced += size;
    }
    expect(reduced / raw).toBeLessThanOrEqual(0.1);
  });
});

describe('tiny outputs', () => {
  it.each([
    ['one character', 'git status', 'x', 0],
    ['a short failure', 'npm test', 'boom\n', 1],
    ['nothing at all', 'true', '', 0],
  ])('returns %s as printed, without a header that would make it longer', (_label, command, output, exitCode) => {
    const result = terminalResultFromRaw({ command, output, exitCode });
    const reduced = terminalReducer.reduce(result, { toolName: 'terminal', args: { command } });
    expect(resultText(reduced)).toBe(output);
    expect(reduced.ok).toBe(exitCode === 0);
    expect(reduced.structured).toEqual(result.structured);
  });
});
