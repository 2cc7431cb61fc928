import { commandWords, type RecognizerInput } from './reducer-input.js';
import type { TestReport } from './test-report.js';

const MESSAGES_PER_TEST = 6;

/**
 * `go test`, plain or `-v`: a test's `t.Error` lines come after its `--- FAIL` line, or before it
 * under `=== RUN` with `-v`; a panic is kept with the first frame in the module's own code.
 */
export function goTest(input: RecognizerInput): TestReport | undefined {
  const ranGoTest =
    /(?:^|\s|;)go\s+test\b/.test(commandWords(input.command)) ||
    // run by make or a script: go test's own verdict lines
    (/^--- FAIL: \S+ \(/m.test(input.output) && /^(?:FAIL|ok)\s+\S+\s+(?:[\d.]+s|\[)/m.test(input.output));
  if (!ranGoTest) return undefined;
  const messages = new Map<string, string[]>();
  const failed: string[] = [];
  let current: string | undefined;
  let panicking = false;
  for (const line of input.lines) {
    const run = /^=== (?:RUN|CONT|PAUSE)\s+(\S+)/.exec(line);
    const result = /^\s*--- (FAIL|PASS|SKIP): (\S+)/.exec(line);
    if (run) current = run[1];
    else if (result) {
      current = result[1] === 'FAIL' ? result[2] : undefined;
      if (result[1] === 'FAIL') failed.push(result[2] as string);
    } else if (/^panic: /.test(line)) {
      panicking = true;
      const test = failed.at(-1) ?? current ?? 'panic';
      messages.set(test, [...(messages.get(test) ?? []), line]);
    } else if (
      panicking &&
      /^\t\/.*\.go:\d+/.test(line) &&
      !/\/(?:src|pkg\/mod)\/(?:testing|runtime)\//.test(line)
    ) {
      const test = failed.at(-1) ?? 'panic';
      const kept = messages.get(test) ?? [];
      if (!kept.some((message) => /\.go:\d+ \+0x/.test(message))) messages.set(test, [...kept, line.trim()]);
    } else if (current && /^\s+\S+\.go:\d+: /.test(line)) {
      messages.set(current, [...(messages.get(current) ?? []), line.trim()]);
    } else if (/^(?:FAIL|ok)\s/.test(line)) current = undefined;
  }
  const failures = [...new Set(failed)].map((name) => ({
    name,
    details: (messages.get(name) ?? []).slice(0, MESSAGES_PER_TEST),
  }));
  const summary = input.lines.filter((line) => /^(?:ok|FAIL|\?)\s+\S+|^PASS$|^FAIL$/.test(line));
  return { runner: 'go test', failures, summary };
}
