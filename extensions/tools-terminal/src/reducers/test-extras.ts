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

function clip(line: string): string {
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE)}…`;
}

/** The lines to add under a run's summary, within `budget` characters (at least the first of each kind). */
export function notRunAndWarnings(runner: string, lines: readonly string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  const pattern = NOT_RUN[runner];
  const notRun = pattern ? lines.filter((line) => pattern.test(line)).map((line) => clip(line.trim())) : [];
  if (notRun.length > 0) {
    out.push(`not run or expected to fail (${notRun.length}):`);
    let shown = 0;
    for (const line of notRun) {
      if (shown > 0 && used + line.length + 1 > budget / 2) break;
      out.push(line);
      used += line.length + 1;
      shown++;
    }
    if (shown < notRun.length) out.push(`… and ${(notRun.length - shown).toLocaleString('en-US')} more`);
  }
  const warnings = new Map<string, string[]>();
  for (const line of lines) {
    const match = WARNING.exec(line);
    if (!match) continue;
    const key = `${match[2]}: ${match[3]}`;
    warnings.set(key, [...(warnings.get(key) ?? []), match[1] as string]);
  }
  if (warnings.size > 0) {
    out.push(`warnings (${plural(warnings.size, 'kind')}):`);
    for (const [message, places] of warnings) {
      const where =
        places.length === 1
          ? places[0]
          : `${places.length}×: ${places.slice(0, 3).join(', ')}${places.length > 3 ? ', …' : ''}`;
      const line = clip(`${message} (${where})`);
      if (used + line.length + 1 > budget && out.at(-1)?.startsWith('warnings') !== true) break;
      out.push(line);
      used += line.length + 1;
    }
  }
  return out;
}
