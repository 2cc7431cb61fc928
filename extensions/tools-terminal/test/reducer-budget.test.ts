import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { loadFixture } from './fixtures.js';

const BUDGET = 4_000;

/** Every `path` a stylish, pylint or flake8 report names, each counted once per problem. */
function problemsPerFile(output: string, place: RegExp): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    const file = place.exec(line)?.[1];
    if (file !== undefined) counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  return counts;
}

describe('linter reports with many problems per file', () => {
  it.each([
    ['eslint-stylish-many', '✖ 216 problems (216 errors, 0 warnings)'],
    ['eslint-errors', '✖ 161 problems (121 errors, 40 warnings)'],
  ])('fit %s in the budget with every file, each rule counted and the totals line', (name, total) => {
    const fixture = loadFixture(name);
    const reduced = reduceTerminalOutput(fixture);
    expect(reduced.length).toBeLessThanOrEqual(BUDGET);
    expect(reduced).toContain(total);
    // ESLint prints each file's path alone on a line, then its problems indented under it.
    const files = new Map<string, number>();
    let file = '';
    for (const line of fixture.output.split('\n')) {
      if (/^\//.test(line)) file = line.slice(line.indexOf('/src/') + 1);
      else if (/^\s+\d+:\d+\s+(?:error|warning)/.test(line)) files.set(file, (files.get(file) ?? 0) + 1);
    }
    for (const [path, count] of files) expect(reduced).toContain(`${path} ${count}`);
    const rules = new Map<string, number>();
    for (const line of fixture.output.split('\n')) {
      const rule = /^\s+\d+:\d+\s+(?:error|warning)\s+.+?\s{2,}([\w/-]+)$/.exec(line)?.[1];
      if (rule !== undefined) rules.set(rule, (rules.get(rule) ?? 0) + 1);
    }
    expect(rules.size).toBeGreaterThan(2);
    for (const [rule, count] of rules)
      expect(reduced).toMatch(new RegExp(`by rule: .*\\b${rule} ${count}\\b`));
  });

  it.each([
    ['pylint-project', /^(shop\/\S+\.py):\d+:\d+: [A-Z]\d{4}/, 'Your code has been rated at 0.00/10'],
    ['flake8-project', /^(shop\/\S+\.py):\d+:\d+: [A-Z]\d{3}/, '286 problems in 30 files'],
  ])('fits %s in the budget with every file counted and the total', (name, place, total) => {
    const fixture = loadFixture(name);
    const reduced = reduceTerminalOutput(fixture);
    expect(reduced.length).toBeLessThanOrEqual(BUDGET);
    expect(reduced).toContain(total);
    const files = problemsPerFile(fixture.output, place);
    expect(files.size).toBeGreaterThan(10);
    for (const [path, count] of files) expect(reduced).toMatch(new RegExp(`[:,] ${path} ${count}(,|$)`, 'm'));
  });

  it('fits a ShellCheck report in the budget with every script counted, each code counted and the first finding of each as printed', () => {
    const fixture = loadFixture('shellcheck-scripts');
    const reduced = reduceTerminalOutput(fixture);
    expect(reduced.length).toBeLessThanOrEqual(BUDGET);
    const files = new Map<string, number>();
    const codes = new Map<string, number>();
    let file = '';
    for (const line of fixture.output.split('\n')) {
      const opened = /^In (\S+) line \d+:$/.exec(line);
      if (opened) file = opened[1] as string;
      const code = /^\s*\^[-^]*\s+(SC\d+)/.exec(line)?.[1];
      if (code === undefined) continue;
      files.set(file, (files.get(file) ?? 0) + 1);
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    const findings = [...files.values()].reduce((sum, count) => sum + count, 0);
    expect(reduced).toContain(`${findings} problems in ${files.size} files`);
    for (const [path, count] of files) expect(reduced).toMatch(new RegExp(`[:,] ${path} ${count}(,|$)`, 'm'));
    for (const [code, count] of codes)
      expect(reduced).toMatch(new RegExp(`by rule: .*\\b${code} ${count}\\b`));
    expect(reduced).toContain(
      'In scripts/deploy-04.sh line 4: SC2045 (error): Iterating over ls output is fragile.',
    );
  });
});

describe('long lists under a top-level record', () => {
  it('keeps the record of apt-cache rdepends with its exact count, and the first and last names, in the budget', () => {
    const fixture = loadFixture('apt-cache-rdepends-installed');
    const reduced = reduceTerminalOutput(fixture);
    expect(reduced.length).toBeLessThanOrEqual(BUDGET);
    const names = fixture.output.split('\n').filter((line) => /^\s+\S+$/.test(line));
    expect(reduced).toMatch(
      new RegExp(
        `^libc6 · Reverse Depends: · ${names.length} entries, ${new Set(names.map((name) => name.trim())).size} distinct: libc6-dbg`,
      ),
    );
    expect(reduced).toContain((names.at(-1) as string).trim());
  });

  it('gives each top-level record of a list its own count', () => {
    const output = [
      'alpha',
      'Reverse Depends:',
      ...Array.from({ length: 40 }, (_, i) => `  a${i}`),
      'beta',
      'Reverse Depends:',
      ...Array.from({ length: 30 }, (_, i) => `  b${i}`),
    ].join('\n');
    const reduced = reduceTerminalOutput({
      command: 'apt-cache rdepends alpha beta',
      output,
      exitCode: 0,
      budget: 100,
    });
    expect(reduced).toContain('alpha · Reverse Depends: · 40 entries, 40 distinct: a0');
    expect(reduced).toContain('beta · Reverse Depends: · 30 entries, 30 distinct: b0');
  });
});

describe('trees of records', () => {
  it('keeps every project of pnpm -r list with the exact count of each dependency section, in the budget', () => {
    const fixture = loadFixture('pnpm-list-recursive');
    const reduced = reduceTerminalOutput(fixture);
    expect(reduced.length).toBeLessThanOrEqual(BUDGET);
    // Count each project's sections from the printed tree: `│   dependencies:` then `├── name` lines.
    const expected: string[] = [];
    let project = '';
    let section = '';
    const sizes = new Map<string, number>();
    for (const line of fixture.output.split('\n')) {
      if (/^\S+@\S+ \/|^quiver-monorepo /.test(line)) project = line.trim();
      const heading = /^│\s+(\w+):$/.exec(line)?.[1];
      if (heading !== undefined) section = `${project}\n  ${heading}`;
      if (/^[├└]── /.test(line)) sizes.set(section, (sizes.get(section) ?? 0) + 1);
    }
    for (const [key, count] of sizes)
      expected.push(`${key} (${count} ${count === 1 ? 'entry' : 'entries'}):`);
    expect(expected.length).toBeGreaterThan(40);
    const projects = new Set([...sizes.keys()].map((key) => key.split('\n')[0]));
    expect(projects.size).toBe(27);
    for (const line of expected) {
      const [heading, counted] = line.split('\n') as [string, string];
      expect(reduced).toContain(heading);
      expect(reduced.slice(reduced.indexOf(heading))).toContain(counted);
    }
  });
});

describe('files printed whole', () => {
  it.each([
    'cat-source-file',
    'cat-yaml-lockfile',
    'cat-toml-manifest',
    'cat-xml-mime',
    'cat-markdown-doc',
    'man-page-git-log',
    'curl-help-all',
    'pg-dump-schema-data',
  ])('fit %s in the budget, or say the outline alone is over it, each kept line after its own line number', (name) => {
    const fixture = loadFixture(name);
    const printed = fixture.output.split('\n');
    const reduced = reduceTerminalOutput(fixture);
    const over = /over the 4,000-character budget: the outline alone are ([\d,]+) characters/.exec(reduced);
    if (over === null) expect(reduced.length).toBeLessThanOrEqual(BUDGET * 1.1);
    else expect(Number((over[1] as string).replace(/,/g, ''))).toBeGreaterThan(BUDGET * 0.7);
    const kept = reduced
      .slice(
        reduced.indexOf('cut from the middle; kept from it:'),
        reduced.indexOf('[… end of the kept lines …]'),
      )
      .split('\n')
      .slice(1, -1);
    expect(kept.length).toBeGreaterThan(5);
    for (const line of kept) {
      const [, number, text] = /^(\d+): (.*)$/.exec(line) ?? [];
      expect(number, line).toBeDefined();
      // An option's description may give way to the option itself.
      expect(printed[Number(number) - 1]?.startsWith(text as string), line).toBe(true);
    }
  });

  it('keeps every method of a source file printed whole with its line number', () => {
    const fixture = loadFixture('cat-source-file');
    const reduced = reduceTerminalOutput(fixture);
    const methods = fixture.output
      .split('\n')
      .map((line, index) => [index + 1, line] as const)
      .filter(
        ([, line]) =>
          /^ {2}(?:async )?[_a-zA-Z]\w*\([^)]*\) \{$/.test(line) &&
          !/^\s+(?:if|for|while|switch)\b/.test(line),
      );
    expect(methods.length).toBeGreaterThan(90);
    for (const [number, line] of methods.slice(1)) expect(reduced).toContain(`${number}: ${line}`);
  });
});
