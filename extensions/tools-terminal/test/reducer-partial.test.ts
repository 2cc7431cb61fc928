import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { reduceTerminalOutput, terminalReducer } from '../src/index.js';
import { OutputWindow } from '../src/output-window.js';
import { terminalResult } from '../src/terminal-result.js';
import { type Fixture, fixtureNames, loadFixture } from './fixtures.js';

/**
 * The property every reducer must hold: the numbers a summary states equal those of the full
 * output, or the summary says it is partial. Each captured fixture goes through the terminal's
 * real output window (4 KB head and tail, so most are cut) three ways: spilled whole, not spilled,
 * and spilled up to a limit smaller than the output.
 */

const WINDOW = { headBytes: 4 * 1024, tailBytes: 4 * 1024 };
const PARTIAL_NOTE = /^\[partial: [\d,]+ bytes from the middle of the output were not read; /m;
/** Counts a summary states: `23 files`, `8 commits`, `3 failed`, `+704 −1262`. */
const COUNT =
  /(?:\+\d+ −\d+)|\b\d[\d,]* (?:files?|commits?|paths?|tests?|errors?|warnings?|problems?|packages?|failed|passed|failures?|suites?|skipped|rows?|records?|sections?)\b/g;

const spillRoot = mkdtempSync(path.join(tmpdir(), 'quiver-reducer-partial-'));
afterAll(() => rmSync(spillRoot, { recursive: true, force: true }));

function throughTheWindow(name: string, fixture: Fixture, spill: 'whole' | 'none' | 'capped'): string {
  const window = new OutputWindow({
    ...WINDOW,
    ...(spill === 'none' ? {} : { spillDir: path.join(spillRoot, name), spillName: `${spill}.log` }),
    ...(spill === 'capped' ? { spillLimitBytes: Math.floor(Buffer.byteLength(fixture.output) / 2) } : {}),
  });
  window.write(Buffer.from(fixture.output, 'utf8'));
  window.close();
  const windowed = window.result();
  const result = terminalResult(
    {
      command: fixture.command,
      cwd: '/tmp/project',
      exitCode: fixture.exitCode,
      signal: null,
      durationMs: 0,
      truncated: windowed.truncated,
      outputBytes: windowed.totalBytes,
      sandboxed: false,
      ...(windowed.spillFile ? { spillFile: windowed.spillFile } : {}),
      ...(windowed.spillCapped ? { spillCapped: true } : {}),
    },
    windowed.text,
    { duration: false },
  );
  const reduced = terminalReducer.reduce(result, {
    toolName: 'terminal',
    args: { command: fixture.command },
  });
  return (reduced.ok ? reduced.value : reduced.error) ?? '';
}

function counts(text: string): string[] {
  return [...text.matchAll(COUNT)].map((match) => match[0]);
}

/** Counts of `reduced` missing from the full output's reduction. */
function countsNotInFull(reduced: string, full: string): string[] {
  const fullCounts = new Set(counts(full));
  return counts(reduced).filter((count) => !fullCounts.has(count));
}

describe('summaries never claim more than they saw', () => {
  describe.each(fixtureNames())('%s', (name) => {
    const fixture = loadFixture(name);
    const full = reduceTerminalOutput(fixture);
    const cut = Buffer.byteLength(fixture.output) > WINDOW.headBytes + WINDOW.tailBytes;

    it('states the counts of the full output when the spill file holds all of it', () => {
      const reduced = throughTheWindow(name, fixture, 'whole');
      expect(countsNotInFull(reduced, full)).toEqual([]);
      if (reduced !== fixture.output) expect(reduced).not.toMatch(PARTIAL_NOTE);
    });

    it('states only counts of the full output, or says it is partial, when the middle was not kept', () => {
      const reduced = throughTheWindow(name, fixture, 'none');
      if (!cut) expect(reduced).not.toMatch(PARTIAL_NOTE);
      if (!PARTIAL_NOTE.test(reduced)) expect(countsNotInFull(reduced, full)).toEqual([]);
    });

    it('states only counts of the full output, or says it is partial, when the spill file reached its limit', () => {
      const reduced = throughTheWindow(name, fixture, 'capped');
      if (!PARTIAL_NOTE.test(reduced)) expect(countsNotInFull(reduced, full)).toEqual([]);
    });
  });

  it('says a git diff is partial, with the files it read, when the middle of the diff was not kept', () => {
    const fixture = loadFixture('git-diff-many-files');
    const reduced = throughTheWindow('git-diff-many-files', fixture, 'none');
    expect(reduced).toMatch(PARTIAL_NOTE);
    expect(reduced).toMatch(/^at least \d+ files changed, \+\d+ −\d+ in the part read/m);
    expect(reduced).not.toMatch(/^\d+ files changed/m);
  });
});

/** `git apply --numstat`: git's own count of each file's lines in a patch (outside any repository: inside one it skips paths outside the working directory). */
function numstat(patch: string): { files: number; added: number; removed: number } {
  const lines = execFileSync('git', ['apply', '--numstat', '-'], {
    input: patch,
    encoding: 'utf8',
    cwd: spillRoot,
  })
    .split('\n')
    .filter((line) => line.length > 0);
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    const [plus, minus] = line.split('\t');
    added += plus === '-' ? 0 : Number(plus);
    removed += minus === '-' ? 0 : Number(minus);
  }
  return { files: lines.length, added, removed };
}

describe('git diff totals', () => {
  const patches = fixtureNames().filter((name) => {
    const fixture = loadFixture(name);
    return (
      /^git (diff|show)\b/.test(fixture.command) &&
      // `git show rev:file` prints a file, not a patch.
      fixture.output.includes('diff --git ') &&
      // A word diff is not a patch git apply reads: its lines carry no +/−.
      !/--(stat|numstat|name-only|name-status|word-diff|color-words)/.test(fixture.command)
    );
  });

  itWithSystemTools(['git'])('equal git apply --numstat of the same patch, for every captured diff', () => {
    expect(patches.length).toBeGreaterThanOrEqual(3);
    for (const name of patches) {
      const fixture = loadFixture(name);
      const { files, added, removed } = numstat(fixture.output);
      const noun = files === 1 ? 'file' : 'files';
      expect(reduceTerminalOutput(fixture), name).toContain(
        `${files} ${noun} changed, +${added} −${removed}:`,
      );
      expect(throughTheWindow(name, fixture, 'whole'), name).toContain(
        `${files} ${noun} changed, +${added} −${removed}:`,
      );
    }
  });
});
