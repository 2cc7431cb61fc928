import { plural } from './reducer-input.js';

/**
 * What a test run did not run and what it warned about, kept under its summary: a skipped or
 * pending test is a test that did not prove anything, and a reader asks which and why.
 */

/** A line naming a test that did not run, or ran expecting to fail, by runner. */
const NOT_RUN: Readonly<Record<string, RegExp>> = {
  'node --test': /^\s*ok \d+ - .+ # (?:SKIP|TODO)\b|^\s*﹣ .+ # (?:SKIP|TODO)?/i,
  jest: /^\s*○ (?:skipped|todo) /,
  vitest: /^\s*↓ \S/,
  mocha: /^ {2,}- \S/,
  pytest: /^(?:SKIPPED|XFAIL|XPASS) /,
  'go test': /^\s*--- SKIP: /,
  'cargo test': /^test \S+ \.\.\. ignored\b/,
};
/** pytest's warnings summary: `  test_x.py:7: DeprecationWarning: old api`. */
const WARNING = /^\s+(\S+:\d+): (\w*Warning): (.*)$/;
const MAX_LINE = 200;

const MAX_WARNING_LINE = 320;

function clip(line: string, max = MAX_LINE): string {
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}

/** The lines to add under a run's summary, within `budget` characters (at least the first of each kind). */
export function notRunAndWarnings(runner: string, lines: readonly string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  const pattern = NOT_RUN[runner];
  // A test that passed while expected to fail is news, one expected to fail says why it is not
  // fixed yet: both come before the skipped ones.
  const rank = (line: string) => (/^(?:XPASS|﹣?\s*TODO)\b/.test(line) ? 0 : /^XFAIL\b/.test(line) ? 1 : 2);
  const notRun = pattern
    ? lines
        .filter((line) => pattern.test(line))
        .map((line) => clip(line.trim()))
        .map((line, index) => ({ line, index }))
        .sort((a, b) => rank(a.line) - rank(b.line) || a.index - b.index)
        .map(({ line }) => line)
    : [];
  const hasWarnings = lines.some((line) => WARNING.test(line));
  if (notRun.length > 0) {
    out.push(`not run or expected to fail (${notRun.length}):`);
    let shown = 0;
    for (const line of notRun) {
      if (shown > 0 && used + line.length + 1 > (hasWarnings ? budget / 2 : budget)) break;
      out.push(line);
      used += line.length + 1;
      shown++;
    }
    if (shown < notRun.length) out.push(`… and ${(notRun.length - shown).toLocaleString('en-US')} more`);
  }
  // Each warning with where it was raised and the test it was raised in (pytest prints the test's
  // id on the line above: `tests/test_x.py::test_y`).
  const warnings = new Map<string, { place: string; test: string | undefined }[]>();
  let test: string | undefined;
  for (const line of lines) {
    if (/^\S+::\S/.test(line)) test = line.trim();
    const match = WARNING.exec(line);
    if (!match) continue;
    const key = `${match[2]}: ${match[3]}`;
    const file = test?.split('::')[0];
    // The place relative to where the run started, as the test id names it.
    let place = match[1] as string;
    if (file !== undefined && place.includes(`/${file}:`))
      place = place.slice(place.indexOf(`/${file}:`) + 1);
    warnings.set(key, [...(warnings.get(key) ?? []), { place, test }]);
  }
  if (warnings.size > 0) {
    out.push(`warnings (${plural(warnings.size, 'kind')}):`);
    for (const [message, raised] of warnings) {
      const places = [...new Set(raised.map((one) => one.place))];
      const tests = raised.map((one) => one.test).filter((one) => one !== undefined);
      const inTests =
        tests.length === 0
          ? ''
          : tests.length === 1
            ? `; in ${tests[0]}`
            : `; in ${tests[0]} … ${tests.at(-1)}`;
      const where =
        raised.length === 1
          ? `${places[0]}${inTests}`
          : `${raised.length}×: ${places.slice(0, 3).join(', ')}${places.length > 3 ? ', …' : ''}${inTests}`;
      const line = clip(`${message} (${where})`, MAX_WARNING_LINE);
      if (used + line.length + 1 > budget && out.at(-1)?.startsWith('warnings') !== true) break;
      out.push(line);
      used += line.length + 1;
    }
  }
  return out;
}
