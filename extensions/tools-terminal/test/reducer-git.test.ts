import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { expectSmallerKeeping } from './expect-reduced.js';
import { loadFixture } from './fixtures.js';

describe('git reduction', () => {
  it('counts git status changes by kind and names every file that fits the budget', () => {
    const reduced = expectSmallerKeeping('git-status', [
      'On branch main',
      'staged (1): modified file-2.txt',
      'not staged (27)',
      'deleted file-3.txt',
      'modified src/module-25.ts',
      'untracked (1): notes.md',
    ]);
    expect(reduced).not.toContain('use "git restore');
  });

  it('names the first files of a long git status and counts the rest at a small budget', () => {
    const fixture = loadFixture('git-status');
    const reduced = reduceTerminalOutput({ ...fixture, budget: 300 });
    expect(reduced).toContain('not staged (27)');
    expect(reduced).toContain('… and 7 more');
  });

  it('keeps a porcelain status whole: it is as short as a grouped one', () => {
    const fixture = loadFixture('git-status-porcelain');
    expect(reduceTerminalOutput(fixture)).toBe(fixture.output);
  });

  it('names every file of a diff stat, without the padding and the +/− graph', () => {
    const reduced = expectSmallerKeeping('git-diff-stat', [
      '27 files changed, 26 insertions(+), 1 deletion(-)',
      'file-1.txt 1',
      'src/module-25.ts 1',
    ]);
    expect(reduced).not.toContain('|');
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

describe('git patch reduction', () => {
  it('reads a word diff as word changes, never as a diff of +0 −0', () => {
    const fixture = loadFixture('git-diff-word-diff');
    const reduced = reduceTerminalOutput(fixture);
    // What git marked, counted from the output itself: lines holding [-removed-] or {+added+}.
    const marked = fixture.output.split('\n').filter((line) => /\[-.*?-\]|\{\+.*?\+\}/.test(line)).length;
    expect(reduced.split('\n')[0]).toBe(`2 files changed, ${marked} lines with word changes:`);
    expect(reduced).not.toContain('+0 −0');
    expect(reduced).not.toContain('no line changes');
    expect(reduced).toContain('"version": [-"3.25.76",-]{+"4.6.7",+}');
  });

  it('names every changed file of a large diff with its +/− counts before any hunk', () => {
    const fixture = loadFixture('git-diff-package-upgrade');
    const reduced = reduceTerminalOutput(fixture);
    const [summary = '', hunks = ''] = reduced.split('\n\n');
    expect(summary.split('\n')[0]).toBe('68 files changed, +3029 −131:');
    expect(summary).toContain('M pkg/README.md (+251 −70)');
    expect(summary).toContain('A pkg/libesm/patch/apply.js (+257)');
    expect(summary).toContain('D pkg/runtime.js (−3)');
    expect(hunks).toMatch(/^diff --git pkg\/README\.md\n@@ /);
    expect(reduced.length).toBeLessThan(fixture.output.length / 20);
  });

  it('shows hunks up to the budget and says that the others were left out', () => {
    const fixture = loadFixture('git-diff-package-upgrade');
    const generous = reduceTerminalOutput({ ...fixture, budget: 20_000 });
    const small = reduceTerminalOutput({ ...fixture, budget: 1_000 });
    expect(generous.length).toBeGreaterThan(small.length);
    expect(generous.split('\n').filter((line) => line.startsWith('@@')).length).toBeGreaterThan(
      small.split('\n').filter((line) => line.startsWith('@@')).length,
    );
    expect(small).toMatch(
      /\[hunks of \d+ files not shown, in part or whole; git diff -- <path> shows one\]$/,
    );
    for (const file of ['pkg/README.md', 'pkg/libesm/util/string.js', 'pkg/runtime.js'])
      expect(small).toContain(file);
  });

  it('marks added, deleted and renamed files and keeps a small diff whole', () => {
    const reduced = expectSmallerKeeping('git-diff-small', [
      '5 files changed, +7 −4:',
      'M src/cart.js (+3 −2)',
      'D src/legacy.js (−1)',
      'R src/moved.txt → src/renamed.txt (+1)',
      'A src/version.js (+1)',
      '+export const VERSION = "1.0.0";',
    ]);
    expect(reduced).not.toContain('index aee2863');
    expect(reduced).not.toContain('not shown');
  });

  it('lists older commits by count once the budget is spent', () => {
    const fixture = loadFixture('git-log-long');
    const reduced = reduceTerminalOutput({ ...fixture, budget: 400 });
    expect(reduced).toMatch(/^60 commits:\nb059081846[0-9a-f]{30} Record release note 60 \(Grace\)\n/);
    expect(reduced).toMatch(/… and \d+ older commits$/);
  });
});
