import { commandWords, type Recognizer, type RecognizerInput } from './reducer-input.js';

const ERROR_LINES_PER_FAILURE = 6;
// Past these, a flood of failures (one broken import) would crowd out everything else.
const DETAILED_FAILURES = 30;
const LISTED_FAILURES = 300;

interface TestReport {
  runner: string;
  failures: { name: string; details: string[] }[];
  summary: string[];
}

/** Splits `lines` into blocks that start where `isStart` matches; each block ends before the next start or `isEnd`. */
function blocks(
  lines: readonly string[],
  isStart: (line: string) => boolean,
  isEnd: (line: string) => boolean,
): string[][] {
  const found: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    if (isStart(line)) {
      current = [line];
      found.push(current);
    } else if (current && isEnd(line)) {
      current = undefined;
    } else {
      current?.push(line);
    }
  }
  return found;
}

/** The first meaningful lines of a failure: no blanks, code frames, carets or stack frames past the first. */
function firstErrorLines(
  lines: readonly string[],
  isNoise: (line: string) => boolean = () => false,
): string[] {
  const kept: string[] = [];
  let stackFrames = 0;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.length === 0 || isNoise(trimmed)) continue;
    if (/^(?:at |❯ )/.test(trimmed) && ++stackFrames > 1) continue;
    kept.push(trimmed);
    if (kept.length >= ERROR_LINES_PER_FAILURE) break;
  }
  return kept;
}

const isCodeFrame = (line: string) => /^(?:>?\s*\d+\s*\||\|)/.test(line) || /^[\s^~]+$/.test(line);

function vitest(input: RecognizerInput): TestReport | undefined {
  const summary = input.lines
    .filter((line) => /^\s*(?:Test Files|Tests)\s{2,}\d+/.test(line))
    .map((line) => line.trim());
  if (summary.length === 0 && !/\bvitest\b/.test(input.command)) return undefined;
  if (summary.length === 0 && !input.lines.some((line) => /^\s*FAIL\s/.test(line))) return undefined;
  const failures = blocks(
    input.lines,
    (line) => /^\s*FAIL\s+\S/.test(line),
    (line) => /^⎯{3,}/.test(line) || /^\s*(?:Test Files|Tests)\s{2,}\d+/.test(line),
  ).map(([header, ...rest]) => ({
    name: (header as string).trim().replace(/^FAIL\s+/, ''),
    details: firstErrorLines(rest, (line) => isCodeFrame(line) || /^[-+] (?:Expected|Received)/.test(line)),
  }));
  return { runner: 'vitest', failures, summary };
}

function jest(input: RecognizerInput): TestReport | undefined {
  const summary = input.lines.filter((line) => /^(?:Test Suites|Tests):\s+/.test(line));
  if (summary.length === 0) return undefined;
  const failures = blocks(
    input.lines,
    (line) => /^\s*● /.test(line) && !/● Console/.test(line),
    (line) => /^(?:Test Suites:|PASS |FAIL )/.test(line),
  ).map(([header, ...rest]) => ({
    name: (header as string).trim().replace(/^● /, ''),
    details: firstErrorLines(rest, (line) => isCodeFrame(line) || /^(?:Object|Array) \{$|^\}$/.test(line)),
  }));
  return { runner: 'jest', failures, summary };
}

function nodeTest(input: RecognizerInput): TestReport | undefined {
  const tapSummary = input.lines.filter((line) => /^# (?:tests|pass|fail|cancelled) \d+/.test(line));
  const specSummary = input.lines.filter((line) => /^ℹ (?:tests|pass|fail|cancelled) \d+/.test(line));
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

function pytest(input: RecognizerInput): TestReport | undefined {
  const summaryLine = [...input.lines].reverse().find((line) =>
    // `-q` prints the summary without the rule of equals signs.
    /^(?:=+ )?.*\b(?:passed|failed|error|errors|skipped|no tests ran)\b.* in [\d.]+s.*?(?: =+)?$/.test(line),
  );
  const isPytest =
    /^=+ test session starts =+$/m.test(input.output) || /\bpytest\b/.test(commandWords(input.command));
  if (!isPytest) return undefined;
  const sections = blocks(
    input.lines,
    (line) => /^_{3,} .+ _{3,}$/.test(line),
    (line) => /^=+ .* =+$/.test(line),
  );
  const details = new Map<string, string[]>();
  for (const [header, ...rest] of sections) {
    const name = (header as string).replace(/^_+ | _+$/g, '');
    const errors = rest.filter((line) => /^E\s/.test(line)).map((line) => line.replace(/^E\s+/, ''));
    const location = rest.find((line) => /^\S+:\d+: \w/.test(line));
    details.set(name, [...errors.slice(0, ERROR_LINES_PER_FAILURE - 1), ...(location ? [location] : [])]);
  }
  const shortSummary = input.lines.filter((line) => /^(?:FAILED|ERROR) \S+/.test(line));
  const failures =
    shortSummary.length > 0
      ? shortSummary.map((line) => {
          const id = line.replace(/^(?:FAILED|ERROR) /, '').replace(/ - .*$/, '');
          const key = id.split('::').slice(1).join('.');
          return { name: line, details: details.get(key) ?? [] };
        })
      : [...details].map(([name, lines]) => ({ name, details: lines }));
  return { runner: 'pytest', failures, summary: summaryLine ? [summaryLine.replace(/^=+ | =+$/g, '')] : [] };
}

function unittest(input: RecognizerInput): TestReport | undefined {
  const ran = input.lines.find((line) => /^Ran \d+ tests? in /.test(line));
  if (!ran) return undefined;
  const verdict = input.lines.find((line) => /^(?:OK|FAILED)\b/.test(line));
  const failures = blocks(
    input.lines,
    (line) => /^(?:FAIL|ERROR): /.test(line),
    (line) => /^={10,}$/.test(line) || /^Ran \d+ tests? in /.test(line),
  ).map(([header, ...rest]) => {
    const body = rest.filter((line) => !/^-{10,}$/.test(line) && line.trim().length > 0);
    const lastFile = body.filter((line) => /^\s+File "/.test(line)).at(-1);
    const exception = body.slice(body.findLastIndex((line) => /^\s/.test(line)) + 1);
    return {
      name: header as string,
      details: [...(lastFile ? [lastFile.trim()] : []), ...exception.slice(0, ERROR_LINES_PER_FAILURE - 1)],
    };
  });
  return { runner: 'unittest', failures, summary: [ran, ...(verdict ? [verdict] : [])] };
}

function goTest(input: RecognizerInput): TestReport | undefined {
  if (!/(?:^|\s|;)go\s+test\b/.test(commandWords(input.command))) return undefined;
  const failures = blocks(
    input.lines,
    (line) => /^\s*--- FAIL: /.test(line),
    (line) => /^\s*(?:--- (?:PASS|FAIL|SKIP)|=== RUN|FAIL\s|ok\s|PASS$)/.test(line),
  ).map(([header, ...rest]) => ({
    name: (header as string).trim().replace(/^--- FAIL: /, ''),
    details: firstErrorLines(rest),
  }));
  const summary = input.lines.filter(
    (line) =>
      /^(?:ok|FAIL|---)\s+\S+\s+[\d.]+s|^(?:ok|FAIL)\s+\S+|^PASS$|^FAIL$/.test(line) && !/^--- /.test(line),
  );
  return { runner: 'go test', failures, summary };
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
  const trailing = input.lines.filter((line) => /^error: test failed/.test(line));
  return {
    runner: 'cargo test',
    failures,
    summary: [...(meaningful.length > 0 ? meaningful : results), ...trailing],
  };
}

const RUNNERS = [vitest, jest, cargoTest, pytest, unittest, goTest, nodeTest];

/**
 * Test runs of vitest, jest, node's test runner, pytest, unittest, go test and cargo test. A
 * passing run becomes its summary; a failing one keeps every failing test's name with its first
 * error lines, and the summary. A failing run where no failing test is found is left to the
 * other recognizers, so a crash or compile error is never summarized away.
 */
export const reduceTestOutput: Recognizer = (input: RecognizerInput) => {
  for (const runner of RUNNERS) {
    const report = runner(input);
    if (!report) continue;
    const failed = input.exitCode !== 0;
    if (failed && report.failures.length === 0) return undefined;
    if (!failed) return [`${report.runner}: passed`, ...report.summary.map((line) => line.trim())].join('\n');
    const lines = [
      `${report.runner}: ${report.failures.length} failing test${report.failures.length === 1 ? '' : 's'}`,
    ];
    for (const failure of report.failures.slice(0, DETAILED_FAILURES)) {
      lines.push('', `✗ ${failure.name}`, ...failure.details.map((line) => `  ${line}`));
    }
    const rest = new Map<string, number>();
    for (const failure of report.failures.slice(DETAILED_FAILURES))
      rest.set(failure.name, (rest.get(failure.name) ?? 0) + 1);
    if (rest.size > 0) {
      const names = [...rest].map(([name, count]) => `✗ ${name}${count > 1 ? ` (${count}×)` : ''}`);
      lines.push('', ...names.slice(0, LISTED_FAILURES));
      if (names.length > LISTED_FAILURES)
        lines.push(`… and ${names.length - LISTED_FAILURES} more failing tests`);
    }
    lines.push('', ...report.summary.map((line) => line.trim()));
    return lines.join('\n');
  }
  return undefined;
};
