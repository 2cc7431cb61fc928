import { goTest } from './go-test.js';
import { jsonTestReport } from './json-report.js';
import { mocha } from './mocha.js';
import { pytest, unittest } from './pytest.js';
import { plural, type Recognizer, type RecognizerInput } from './reducer-input.js';
import { notRunAndWarnings } from './test-extras.js';
import { blocks, firstErrorLines, isCodeFrame, type TestReport } from './test-report.js';

/** A line that says where a failure happened: `❯ cart.test.js:5:130`, `at Object.toBe (suite/a.test.js:2:45)`, `location: '…:4:1'`, `File "a.py", line 7`. */
const LOCATION_LINE =
  /^(?:❯ |location: )\S*:\d+|^at (?:.* \()?[^\s()]+:\d+(?::\d+)?\)?$|^File "[^"]+", line \d+/;

// Past this, a flood of failures (one broken import) would crowd out everything else.
const LISTED_FAILURES = 300;

/** vitest's summary rows; `Snapshots` and `Errors` appear when snapshots failed or errors went unhandled. */
const VITEST_SUMMARY = /^\s*(?:Test Files|Tests|Snapshots|Errors|Type Errors)\s{2,}\d+/;
/** vitest's banner over an error no test caught: it fails the run as a failing test does. */
const VITEST_UNHANDLED = /^⎯+ (?:Uncaught Exception|Unhandled Rejection|Unhandled Error) ⎯+$/;

function vitest(input: RecognizerInput): TestReport | undefined {
  const summary = input.lines.filter((line) => VITEST_SUMMARY.test(line)).map((line) => line.trim());
  if (summary.length === 0 && !/\bvitest\b/.test(input.command)) return undefined;
  if (summary.length === 0 && !input.lines.some((line) => /^\s*FAIL\s/.test(line))) return undefined;
  const failures = blocks(
    input.lines,
    (line) => /^\s*FAIL\s+\S/.test(line),
    (line) => /^⎯{3,}/.test(line) || VITEST_SUMMARY.test(line),
  ).map(([header, ...rest]) => ({
    name: (header as string).trim().replace(/^FAIL\s+/, ''),
    details: firstErrorLines(rest, (line) => isCodeFrame(line) || /^[-+] (?:Expected|Received)/.test(line)),
  }));
  const unhandled = blocks(
    input.lines,
    (line) => VITEST_UNHANDLED.test(line),
    (line) => /^⎯{3,}$/.test(line) || VITEST_SUMMARY.test(line) || /^This error originated in /.test(line),
  ).map(([banner, ...rest]) => {
    // Not a failing test (the count says how many tests failed), but it fails the run: the error and where.
    const [error, ...where] = firstErrorLines(rest, (line) => isCodeFrame(line));
    const at = where.find((line) => /^❯ /.test(line));
    return `${(banner as string).replace(/⎯/g, '').trim()}: ${error ?? ''}${at ? ` ${at}` : ''}`;
  });
  return { runner: 'vitest', failures, summary: [...unhandled, ...summary] };
}

function jest(input: RecognizerInput): TestReport | undefined {
  // `Tests:       2 failed, 1 passed, 3 total` (PHPUnit's `Tests: 200, Assertions: …` has no total).
  const summary = input.lines.filter((line) => /^(?:Test Suites|Tests):\s+.*\b\d+ total\b/.test(line));
  if (summary.length === 0) return undefined;
  // With more than one suite failing, jest prints every failure again under `Summary of all
  // failing tests`: read once, they are not failures twice.
  const repeat = input.lines.findIndex((line) => /^Summary of all failing tests$/.test(line));
  const lines = repeat >= 0 ? input.lines.slice(0, repeat) : input.lines;
  // The file each failure was printed under.
  const fileAt: (string | undefined)[] = [];
  let file: string | undefined;
  for (const line of lines) {
    const header = /^FAIL (\S+)/.exec(line);
    if (header) file = header[1];
    else if (/^PASS /.test(line)) file = undefined;
    fileAt.push(file);
  }
  const starts: number[] = [];
  const failures = blocks(
    lines,
    (line) => /^\s*● /.test(line) && !/● Console/.test(line),
    (line) => /^(?:Test Suites:|PASS |FAIL )/.test(line),
  ).map(([header, ...rest]) => {
    const at = lines.indexOf(header as string, (starts.at(-1) ?? -1) + 1);
    starts.push(at);
    return {
      name: (header as string).trim().replace(/^● /, ''),
      details: firstErrorLines(rest, (line) => isCodeFrame(line) || /^(?:Object|Array) \{$|^\}$/.test(line)),
      file: fileAt[at],
    };
  });
  return { runner: 'jest', failures, summary };
}

function nodeTest(input: RecognizerInput): TestReport | undefined {
  const tapSummary = input.lines.filter((line) =>
    /^# (?:tests|pass|fail|cancelled|skipped|todo) \d+/.test(line),
  );
  const specSummary = input.lines.filter((line) =>
    /^ℹ (?:tests|pass|fail|cancelled|skipped|todo) \d+/.test(line),
  );
  if (tapSummary.length > 0) {
    const failures = blocks(
      input.lines,
      (line) => /^\s*not ok \d+ - /.test(line),
      (line) => /^\s*(?:ok \d+ - |# Subtest:|\d+\.\.\d+$)/.test(line),
    ).map(([header, ...rest]) => ({
      name: (header as string).trim().replace(/^not ok \d+ - /, ''),
      details: firstErrorLines(
        rest.filter(
          (line) =>
            !/^\s*(?:duration_ms|failureType|code|stack|operator|expected|actual):|^\s*(?:---|\.\.\.)$/.test(
              line,
            ),
        ),
        (line) =>
          /^(?:Test\.|async Test\.|TestContext\.|process\.|node:)/.test(line) || /\(node:internal/.test(line),
      ),
    }));
    return {
      runner: 'node --test',
      failures: failures.filter((failure) => !/^\S+\.m?[jt]s$/.test(failure.name) || failures.length === 1),
      summary: tapSummary,
    };
  }
  if (specSummary.length > 0) {
    const failingSection = input.lines.findIndex((line) => /^✖ failing tests:/.test(line));
    const source = failingSection >= 0 ? input.lines.slice(failingSection + 1) : input.lines;
    const failures = blocks(
      source,
      (line) => /^\s*✖ /.test(line),
      (line) => /^\s*[✔ℹ﹣] /.test(line),
    ).map(([header, ...rest]) => ({
      name: (header as string).trim().replace(/^✖ /, ''),
      details: firstErrorLines(rest, (line) =>
        /^(?:generatedMessage|code|actual|expected|operator):|^[{}]$/.test(line),
      ),
    }));
    return { runner: 'node --test', failures, summary: specSummary };
  }
  return undefined;
}

function cargoTest(input: RecognizerInput): TestReport | undefined {
  const results = input.lines.filter((line) => /^test result: /.test(line));
  if (results.length === 0) return undefined;
  const failures = blocks(
    input.lines,
    (line) => /^---- .+ stdout ----$/.test(line),
    (line) => /^(?:failures:|test result:)/.test(line),
  ).map(([header, ...rest]) => ({
    name: (header as string).replace(/^---- | stdout ----$/g, ''),
    details: firstErrorLines(
      rest.slice(0, rest.findIndex((line) => /^(?:stack backtrace:|note: )/.test(line)) >>> 0),
    ),
  }));
  const meaningful = results.filter((line) => !/ 0 passed; 0 failed;/.test(line));
  // The verdict over every target (`error: 2 targets failed:` and the targets under it).
  const targets = input.lines.findIndex((line) => /^error: \d+ targets? failed:$/.test(line));
  const listed: string[] = [];
  for (let index = targets + 1; targets >= 0 && index < input.lines.length; index++) {
    const line = input.lines[index] as string;
    if (!/^\s+\S/.test(line)) break;
    listed.push(line);
  }
  const verdict = targets < 0 ? [] : [input.lines[targets] as string, ...listed];
  const trailing = input.lines.filter((line) => /^error: test failed/.test(line));
  return {
    runner: 'cargo test',
    failures,
    summary: [...(meaningful.length > 0 ? meaningful : results), ...trailing, ...verdict],
    // The build's warnings, each message once with where it was raised (`--> src/lib.rs:1:50`).
    notes: compilerWarnings(input.lines),
  };
}

/** A compiler's warnings before a test run (`warning: unused variable: `y``, then ` --> src/lib.rs:1:50`): each message once, with every place. */
function compilerWarnings(lines: readonly string[]): string[] {
  const places = new Map<string, Set<string>>();
  for (const [index, line] of lines.entries()) {
    if (!/^warning: /.test(line)) continue;
    // `warning: `ledger` (lib) generated 5 warnings` counts them: kept as printed, once.
    const at = /^\s*--> (\S+)$/.exec(lines[index + 1] ?? '')?.[1];
    const seen = places.get(line) ?? new Set<string>();
    if (at !== undefined) seen.add(at);
    places.set(line, seen);
  }
  return [...places].map(([line, at]) => [line, ...[...at].map((place) => ` --> ${place}`)].join('\n'));
}

/** A line saying where a failure happened, or what it was, when its test's heading is not there. */
const FAILURE_DETAIL = /^\s*(?:❯ \S+:\d+|at \S+ \(\S+:\d+:\d+\)$)|^[\w.]*(?:Error|Exception)\b[:\s]/;
const MAX_UNREAD_LINES = 10;

/**
 * When the run's own summary counts more failures than were found whole (`vitest run | tail -40`
 * cut the first one's heading off), the lines that still tell of the others: the summary is never
 * left to stand for failures the reduction dropped.
 */
function unreadFailures(report: TestReport, lines: readonly string[], run: string): string[] {
  const counted = Math.max(
    0,
    ...report.summary
      .filter((line) => !/^\s*Test (?:Files|Suites)\b/.test(line))
      .map((line) => Number(/\b(\d+) (?:failed|failing|failures?)\b/.exec(line)?.[1] ?? 0)),
  );
  const found = new Set(report.failures.map((failure) => failure.name)).size;
  if (counted <= found) return [];
  const details = lines
    .map((line) => line.trim())
    .filter(
      (line, index, all) => FAILURE_DETAIL.test(line) && !run.includes(line) && all.indexOf(line) === index,
    );
  if (details.length === 0) return [];
  return [
    `${plural(counted - found, 'failure')} not printed whole (the summary counts ${counted}); lines that tell of them:`,
    ...details.slice(0, MAX_UNREAD_LINES),
  ];
}

/** Notes kept under a summary at most (a build's distinct warnings). */
const MAX_NOTES = 20;

function notesOf(report: TestReport): string[] {
  const notes = report.notes ?? [];
  return notes.length > MAX_NOTES
    ? [...notes.slice(0, MAX_NOTES), `… and ${notes.length - MAX_NOTES} more warnings`]
    : notes;
}

const RUNNERS = [jsonTestReport, vitest, jest, mocha, cargoTest, pytest, unittest, goTest, nodeTest];

function failingRun(report: TestReport, budget: number): string {
  // The same test reported twice (a retry, a repeated listing) is one failing test.
  const count = new Set(report.failures.map((failure) => failure.name)).size;
  // "Failures", not "failing tests": the list also holds errors outside a test (pytest's setup
  // errors, a jest suite that failed to run), which the runner's own summary counts apart.
  const lines = [`${report.runner}: ${count} failure${count === 1 ? '' : 's'}`];
  // Names and first error lines are what a developer acts on, so every one is listed.
  const counted = new Map<string, { details: string[]; times: number; file?: string }>();
  for (const failure of report.failures) {
    const seen = counted.get(failure.name);
    if (seen) seen.times++;
    else counted.set(failure.name, { details: failure.details, times: 1, file: failure.file });
  }
  const names = [...counted].slice(0, LISTED_FAILURES);
  let left =
    budget -
    names.reduce((sum, [name]) => sum + name.length + 4, 0) -
    report.summary.reduce((sum, line) => sum + line.length + 1, 0);
  let file: string | undefined;
  for (const [name, { details, times, file: inFile }] of names) {
    // Failures under the file they were printed under, as the runner printed it.
    if (inFile !== undefined && inFile !== file) lines.push(`FAIL ${inFile}`);
    file = inFile;
    lines.push(`✗ ${name}${times > 1 ? ` (${times}×)` : ''}`);
    const detailLines = details.map((line) => `  ${line}`);
    const size = detailLines.reduce((sum, line) => sum + line.length + 1, 0);
    // The first line is the error itself and a location says where: both are kept; the rest
    // (values, diffs) only while the budget lasts.
    const shown =
      size <= left
        ? detailLines
        : detailLines.filter((line, index) => index === 0 || LOCATION_LINE.test(line.trim()));
    lines.push(...shown);
    left -= shown.reduce((sum, line) => sum + line.length + 1, 0);
  }
  if (counted.size > LISTED_FAILURES) lines.push(`… and ${counted.size - LISTED_FAILURES} more failures`);
  lines.push('', ...report.summary.map((line) => line.trim()), ...notesOf(report));
  return lines.join('\n');
}

/**
 * Test runs of vitest, jest, mocha, node's test runner, pytest, unittest, go test and cargo test.
 * A passing run becomes its summary; a failing one keeps every failing test's name, their first
 * error lines as far as the budget goes, and the summary. A failing run where no failing test is
 * found is left to the other recognizers, so a crash or compile error is never summarized away.
 */
export const reduceTestOutput: Recognizer = (input: RecognizerInput) => {
  for (const runner of RUNNERS) {
    const report = runner(input);
    if (!report) continue;
    // Failures printed make a failing run whatever the exit code says: the code may be another
    // command's (`pytest | tail -40`, `vitest run; echo done`).
    const failed = report.failures.length > 0 || (input.exitCode !== 0 && input.exitCode !== null);
    if (failed && report.failures.length === 0) return undefined;
    // A passing run is shown by its summary; without one (`pytest --collect-only`, a list of the
    // tests, a run cut short) there is nothing to say it passed, and the output is left as it is.
    if (!failed && report.summary.length === 0) return undefined;
    const extras = notRunAndWarnings(report.runner, input.lines, input.budget / 2);
    // Without the run's own exit code, no failing test found is all that can be said, and only
    // when the summary counts none either (a failure in a shape not read here).
    const verdict = input.exitCode === 0 ? 'passed' : 'no failing test found';
    const countsFailures = report.summary.some((line) =>
      /\b[1-9]\d* (?:failed|failing|failures?|errors?)\b/i.test(line),
    );
    if (!failed && input.exitCode === null && countsFailures) return undefined;
    if (!failed)
      return [
        `${report.runner}: ${verdict}`,
        ...report.summary.map((line) => line.trim()),
        ...notesOf(report),
        ...extras,
      ].join('\n');
    // The build tool that ran the tests (make) says which target failed.
    const wrapper = input.lines.filter((line) => /^make(?:\[\d+\])?: \*\*\* /.test(line));
    const run = failingRun({ ...report, summary: [...report.summary, ...wrapper] }, input.budget);
    const unread = unreadFailures(report, input.lines, run);
    return [run, ...unread, ...extras].join('\n');
  }
  return undefined;
};
