import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { fixtureNames, loadFacts, loadFixture } from './fixtures.js';

// Two real outputs one after the other, as a command line that runs both prints them (`npm ci &&
// npm test`, `tsc; vitest run`): the reducer that recognizes one of them must not drop the other.
// `&&` when the first succeeded, `;` when it failed (with `&&` the second would not have run).
const SEQUENCES: [string, string][] = [
  ['npm-install', 'vitest-fail'],
  ['npm-install', 'jest-fail'],
  ['npm-install', 'pytest-fail'],
  ['pnpm-add', 'tsc-errors'],
  ['git-status', 'tsc-errors'],
  ['git-status', 'pytest-fail'],
  ['tsc-errors', 'vitest-fail'],
  ['tsc-errors', 'pytest-fail'],
  ['eslint-few', 'vitest-fail'],
  ['mypy-errors', 'pytest-fail'],
  ['mypy-errors', 'tsc-errors'],
  ['cargo-build-errors', 'go-test-fail'],
  ['cargo-build-errors', 'pytest-fail'],
  ['make-compile-error', 'python-chained-traceback'],
  ['python-chained-traceback', 'pytest-fail'],
  ['npm-install-eresolve', 'pytest-fail'],
  ['npm-install-eresolve', 'jest-fail'],
  ['vitest-fail', 'make-compile-error'],
  ['vitest-fail', 'npm-install'],
  ['jest-fail', 'make-compile-error'],
];

describe('the outputs of a compound command line', () => {
  for (const [first, second] of SEQUENCES) {
    it(`keeps the facts of ${first} and of ${second} printed after it`, () => {
      const a = loadFixture(first);
      const b = loadFixture(second);
      const command = `${a.command} ${a.exitCode === 0 ? '&&' : ';'} ${b.command}`;
      const reduced = reduceTerminalOutput({
        command,
        output: `${a.output.trimEnd()}\n${b.output}`,
        exitCode: b.exitCode,
      });
      for (const fact of [...loadFacts(first), ...loadFacts(second)].filter((fact) => !fact.budgeted))
        expect(reduced).toContain(fact.text);
    });
  }

  for (const sequence of [
    ['npm-install', 'eslint-few', 'vitest-fail'],
    ['git-status', 'tsc-errors', 'vitest-fail'],
    ['pnpm-add', 'mypy-errors', 'pytest-fail'],
    ['npm-install', 'vitest-pass', 'tsc-errors'],
  ]) {
    it(`keeps the facts of each of ${sequence.join(', ')} run one after another`, () => {
      const fixtures = sequence.map(loadFixture);
      const reduced = reduceTerminalOutput({
        command: fixtures.map((fixture) => fixture.command).join(' ; '),
        output: fixtures.map((fixture) => fixture.output.trimEnd()).join('\n'),
        exitCode: fixtures.at(-1)?.exitCode ?? 1,
      });
      for (const fact of sequence.flatMap(loadFacts).filter((fact) => !fact.budgeted))
        expect(reduced).toContain(fact.text);
    });
  }

  it('reads an npm script that runs several commands (announced as `> eslint . ; vitest run`) part by part', () => {
    const lint = loadFixture('eslint-few');
    const tests = loadFixture('vitest-fail');
    const reduced = reduceTerminalOutput({
      command: 'npm run check',
      output: `\n> shop@1.0.0 check\n> eslint src ; vitest run\n\n${lint.output.trimEnd()}\n${tests.output}`,
      exitCode: 1,
    });
    for (const fact of [...loadFacts('eslint-few'), ...loadFacts('vitest-fail')].filter(
      (fact) => !fact.budgeted,
    ))
      expect(reduced).toContain(fact.text);
  });

  // `echo "exit=$?"` after a command, or a pipe into `tail`, makes the exit code another
  // command's: a failing run must still read as failing, and a listing keep its tree.
  it('keeps every fact of every fixture when the command line echoes its exit code after it', () => {
    const lost: string[] = [];
    for (const name of fixtureNames()) {
      const fixture = loadFixture(name);
      const reduced = reduceTerminalOutput({
        command: `${fixture.command}; echo "exit=$?"`,
        output: `${fixture.output.trimEnd()}\nexit=${fixture.exitCode}\n`,
        exitCode: 0,
      });
      for (const fact of loadFacts(name))
        if (!reduced.includes(fact.text)) lost.push(`${name}: ${fact.text}`);
    }
    expect(lost).toEqual([]);
  });

  it('shows the lines printed before the first recognized line as they would be alone', () => {
    const fixture = loadFixture('cmake-build-many');
    const alone = reduceTerminalOutput({ ...fixture, command: 'cmake --build build -- -k' });
    // The same output under a command line that ran cmake twice: the build's progress lines
    // before its first error are read apart from the diagnostics, and none is lost.
    const twice = reduceTerminalOutput(fixture);
    for (const line of alone.split('\n')) expect(twice).toContain(line);
    expect(twice).toContain('[  8%] Building C object CMakeFiles/catalog.dir/src/module_08.c.o');
  });
});
