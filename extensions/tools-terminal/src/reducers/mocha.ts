import { commandWords, type RecognizerInput } from './reducer-input.js';
import { blocks, ERROR_LINES_PER_FAILURE, firstErrorLines, type TestReport } from './test-report.js';

const COUNT = /^\s+\d+ (?:passing|failing|pending)\b/;

/** Mocha's spec reporter: `N) suite … title:` blocks after the counts, each with its error and first frame. */
export function mocha(input: RecognizerInput): TestReport | undefined {
  const summary = input.lines.filter((line) => COUNT.test(line)).map((line) => line.trim());
  if (summary.length === 0 || !/\bmocha\b/.test(commandWords(input.command))) return undefined;
  const afterCounts = input.lines.slice(input.lines.findLastIndex((line) => COUNT.test(line)) + 1);
  const failures = blocks(
    afterCounts,
    (line) => /^\s{2}\d+\) \S/.test(line),
    () => false,
  ).map(([header, ...rest]) => {
    const titleEnd = rest.findIndex((line) => /:\s*$/.test(line));
    const title = [header as string, ...rest.slice(0, titleEnd + 1)]
      .map((line) =>
        line
          .trim()
          .replace(/^\d+\) /, '')
          .replace(/:$/, ''),
      )
      .join(' › ');
    const body = rest.slice(titleEnd + 1).map((line) => line.trim());
    const frame = body.find(
      (line) => /^at .*:\d+:\d+\)?$/.test(line) && !/node_modules|node:internal/.test(line),
    );
    const message = firstErrorLines(
      body.filter((line) => !line.startsWith('at ')),
      (line) => /^\+ (?:expected - actual|actual - expected)$|^[-+]?\s*[{}[\]]$|^[-+]\S/.test(line),
    ).slice(0, ERROR_LINES_PER_FAILURE - 1);
    return { name: title, details: [...message, ...(frame ? [frame] : [])] };
  });
  return { runner: 'mocha', failures, summary };
}
