import { describe, expect, it } from 'vitest';
import { nulSeparatedAsLines } from '../src/reducers/binary.js';
import { cutKinds, reduceGenericOutput } from '../src/reducers/generic.js';
import { DEFAULT_REDUCER_BUDGET, terminalText } from '../src/reducers/reducer-input.js';
import { fixtureNames, loadFixture } from './fixtures.js';

const CUT_NOTE = /^\[… ([\d,]+) lines? cut from the middle(?:; kept from it: (.*))? …\]$/;
const END_OF_KEPT = '[… end of the kept lines …]';
const RUN_SUFFIX = / {2}\[× (?:at least )?([\d,]+)\]$/;
const number = (text: string) => Number(text.replaceAll(',', ''));

interface Entry {
  text: string;
  /** Printed lines it stands for, and the number of the first. */
  lines: number;
  line: number;
}

/** The printed lines as the note counts them: a run of three or more identical lines is one entry. */
function entries(lines: readonly string[]): Entry[] {
  const shown: Entry[] = [];
  for (let index = 0; index < lines.length; ) {
    let end = index + 1;
    while (end < lines.length && lines[end] === lines[index]) end++;
    const run = end - index;
    const line = lines[index] as string;
    const text = line.length <= 500 ? line : `${line.slice(0, 500)}… [${line.length - 500} more chars]`;
    if (run >= 3) shown.push({ text, lines: run, line: index + 1 });
    else for (let copy = 0; copy < run; copy++) shown.push({ text, lines: 1, line: index + copy + 1 });
    index = end;
  }
  return shown;
}

/** A kind's kept count and the total the note states, from the note's text. */
function stated(note: string, kind: RegExp): { kept: number; of: number } | undefined {
  const match = kind.exec(note);
  if (!match) return undefined;
  const kept = number(match[1] as string);
  return { kept, of: match[2] === undefined ? kept : number(match[2]) };
}

describe('the generic cut note on every captured fixture', () => {
  const cases = fixtureNames().flatMap((name) =>
    [DEFAULT_REDUCER_BUDGET, 1_000].map((budget) => [name, budget] as const),
  );
  let checked = 0;

  it.each(cases)('%s at %i characters counts exactly the lines it cut and kept', (name, budget) => {
    const fixture = loadFixture(name);
    const clean = terminalText(nulSeparatedAsLines(fixture.output));
    const lines = clean.split('\n');
    const reduced = reduceGenericOutput({
      command: fixture.command,
      output: clean,
      lines,
      exitCode: fixture.exitCode,
      budget,
    });
    const printed = reduced?.split('\n') ?? [];
    const at = printed.findIndex((line) => CUT_NOTE.test(line));
    if (at < 0) return;
    checked++;
    const [, cutText, keptText = ''] = CUT_NOTE.exec(printed[at] as string) as RegExpExecArray;
    const end = printed.indexOf(END_OF_KEPT, at);
    const head = printed.slice(0, at);
    const keptLines = end < 0 ? [] : printed.slice(at + 1, end);
    const tail = printed.slice((end < 0 ? at : end) + 1);

    // The ends are the output's first and last lines as printed.
    const shown = entries(lines);
    const withRuns = (entry: Entry) =>
      entry.lines >= 3 ? `${entry.text}  [× ${entry.lines.toLocaleString('en-US')}]` : entry.text;
    const comparable = (text: string) => text.replace(RUN_SUFFIX, '');
    expect(head.map(comparable)).toEqual(shown.slice(0, head.length).map((entry) => entry.text));
    expect(tail.map(comparable)).toEqual(shown.slice(shown.length - tail.length).map((entry) => entry.text));
    const middle = shown.slice(head.length, shown.length - tail.length);

    // Each kept line is one of the middle's, in order: by its number when numbered, else by its text.
    const numbered = keptText.includes('each after its line number');
    const kept: Entry[] = [];
    let from = 0;
    for (const line of keptLines) {
      const index = numbered
        ? middle.findIndex((entry) => entry.line === number(/^([\d,]+): /.exec(line)?.[1] ?? '-1'))
        : middle.findIndex(
            (entry, position) =>
              position >= from && withRuns(entry) === line.replace(/ {2}\[× at least /, '  [× '),
          );
      expect(index, `kept line ${line}`).toBeGreaterThanOrEqual(from);
      kept.push(middle[index] as Entry);
      from = index + 1;
    }
    const sum = (list: readonly Entry[]) => list.reduce((total, entry) => total + entry.lines, 0);
    expect(number(cutText as string)).toBe(sum(middle) - sum(kept));

    // Each kind's count is of the lines the output keeps, against those of the part finally cut.
    const { isOutline, isProblem } = cutKinds(fixture.command, lines);
    const texts = (list: readonly Entry[]) => list.map((entry) => withRuns(entry));
    const failures = stated(keptText, /([\d,]+) lines? reporting a failure(?: \(of ([\d,]+)\))?/);
    const keptFailures = texts(kept).filter(isProblem).length;
    expect(failures?.kept ?? 0).toBe(keptFailures);
    if (failures) expect(failures.of).toBe(texts(middle).filter(isProblem).length);
    const outline = stated(
      keptText,
      /([\d,]+) outline lines? \(headings, definitions, keys\)(?: \(of ([\d,]+)\))?/,
    );
    expect(outline?.kept ?? 0).toBe(new Set(texts(kept).filter(isOutline)).size);
    if (outline) expect(outline.of).toBe(new Set(texts(middle).filter(isOutline)).size);
  });

  it('finds cut notes to check in most of the corpus', () => {
    expect(checked).toBeGreaterThan(100);
  });
});
