import { commandWords, type RecognizerInput } from './reducer-input.js';
import { blocks, ERROR_LINES_PER_FAILURE, type TestReport } from './test-report.js';

const MAX_DURATIONS = 20;

/** The lines after a `=== heading ===` rule up to the next rule. */
function blockAfter(lines: readonly string[], heading: RegExp): string[] {
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && /^=+ .* =+$/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.trim() !== '');
}

function firstAndLastOf(lines: readonly string[], count: number): string[] {
  if (lines.length <= count) return [...lines];
  const last = Math.floor(count / 3);
  return [...lines.slice(0, count - last), `[… ${lines.length - count} more …]`, ...lines.slice(-last)];
}

/** The test a section of pytest's report is about: `ERROR at setup of test_x` and `test_x` both name `test_x`. */
function sectionKey(title: string): string {
  return title.replace(/^ERROR (?:at (?:setup|teardown|call) of|collecting) /, '').replace(/^.*::/, '');
}

/** The key of a short-summary line, `FAILED tests/a.py::Class::test_x - msg`, matching `sectionKey`. */
function summaryKey(id: string): string {
  const parts = id.split('::');
  return parts.length === 1 ? (parts[0] as string) : parts.slice(1).join('.');
}

/** Each report section's `E` lines and its last `file:line:` location, by the test it is about. */
function sectionDetails(lines: readonly string[]): { title: string; key: string; details: string[] }[] {
  return blocks(
    lines,
    (line) => /^_{3,} .+ _{3,}$/.test(line),
    (line) => /^=+ .* =+$/.test(line),
  ).map(([header, ...rest]) => {
    const title = (header as string).replace(/^_+ | _+$/g, '');
    const errors = rest.filter((line) => /^E\s/.test(line)).map((line) => line.replace(/^E\s+/, ''));
    const location = rest.filter((line) => /^\S+:\d+: /.test(line)).at(-1);
    return {
      title,
      key: sectionKey(title),
      details: [...errors.slice(0, ERROR_LINES_PER_FAILURE - 1), ...(location ? [location] : [])],
    };
  });
}

export function pytest(input: RecognizerInput): TestReport | undefined {
  const isPytest =
    /^=+ test session starts =+$/m.test(input.output) || /\bpytest\b/.test(commandWords(input.command));
  if (!isPytest) return undefined;
  const summaryLine = [...input.lines].reverse().find((line) =>
    // `-q` prints the summary without the rule of equals signs.
    /^(?:=+ )?.*\b(?:passed|failed|error|errors|skipped|no tests ran)\b.* in [\d.]+s.*?(?: =+)?$/.test(line),
  );
  const interrupted = input.lines.filter((line) => /^!+ .*Interrupted.* !+$/.test(line));
  const sections = sectionDetails(input.lines);
  const shortSummary = input.lines.filter((line) => /^(?:FAILED|ERROR) \S+/.test(line));
  const failures =
    shortSummary.length > 0
      ? shortSummary.map((line) => {
          const id = line.replace(/^(?:FAILED|ERROR) /, '').replace(/ - .*$/, '');
          const isError = line.startsWith('ERROR');
          const index = sections.findIndex(
            (section) => section.key === summaryKey(id) && section.title.startsWith('ERROR ') === isError,
          );
          const [section] = index >= 0 ? sections.splice(index, 1) : [];
          // The summary line already carries the first error line; the rest adds to it.
          const details = (section?.details ?? []).filter((detail) => !line.includes(detail));
          return { name: line, details };
        })
      : sections.map((section) => ({ name: section.title, details: section.details }));
  // `--tb=line` prints one `path:line: message` per failure, in the order of the short summary.
  const lineLocations = blockAfter(input.lines, /^=+ FAILURES =+$/).filter((line) => /^\S+:\d+: /.test(line));
  if (sections.length === 0 && shortSummary.length > 0 && lineLocations.length === failures.length)
    for (const [index, failure] of failures.entries()) {
      const location = (lineLocations[index] as string).replace(/:\d+: .*$/, (match) =>
        match.replace(/: .*$/, ''),
      );
      if (failure.details.length === 0) failure.details = [location];
    }
  // `--durations=N`: the slowest tests, as printed, under the verdict.
  const durations = blockAfter(input.lines, /^=+ slowest (?:\d+ )?durations =+$/);
  const durationsHeading = input.lines.find((line) => /^=+ slowest (?:\d+ )?durations =+$/.test(line));
  const summary = [
    ...interrupted.map((line) => line.replace(/^!+ | !+$/g, '')),
    ...(summaryLine ? [summaryLine.replace(/^=+ | =+$/g, '')] : []),
    ...(durationsHeading === undefined
      ? []
      : [durationsHeading.replace(/^=+ | =+$/g, ''), ...firstAndLastOf(durations, MAX_DURATIONS)]),
  ];
  return { runner: 'pytest', failures, summary };
}

export function unittest(input: RecognizerInput): TestReport | undefined {
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
