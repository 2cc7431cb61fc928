import type { Recognizer, RecognizerInput } from './reducer-input.js';

const PLAIN = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/;

/**
 * TypeScript diagnostics, plain `file(line,col): error TSnnnn` or pretty `file:line:col - error
 * TSnnnn`: every error is kept; the same code and message at several places becomes one entry
 * listing all its locations, and exact repeats (project references, watch) are folded.
 */
export const reduceTypescriptOutput: Recognizer = (input: RecognizerInput) => {
  const groups = new Map<
    string,
    { code: string; message: string; locations: Set<string>; pretty: boolean }
  >();
  const otherErrors: string[] = [];
  let errorCount = 0;
  for (const line of input.lines) {
    const plain = PLAIN.exec(line);
    const match = plain ?? PRETTY.exec(line);
    if (!match) {
      if (/^error TS\d+:/.test(line)) otherErrors.push(line);
      continue;
    }
    const [, file, row, column, code, message] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const key = `${code} ${message}`;
    const group = groups.get(key) ?? { code, message, locations: new Set<string>(), pretty: !plain };
    // Locations stay as tsc printed them, so they can be searched for and clicked.
    group.locations.add(plain ? `${file}(${row},${column})` : `${file}:${row}:${column}`);
    groups.set(key, group);
    errorCount++;
  }
  if (groups.size === 0) return undefined;
  const lines: string[] = [...new Set(otherErrors)];
  for (const group of groups.values()) {
    const [first, ...rest] = [...group.locations];
    if (rest.length === 0)
      lines.push(`${first}${group.pretty ? ' -' : ':'} error ${group.code}: ${group.message}`);
    else
      lines.push(
        `error ${group.code}: ${group.message} (${rest.length + 1}×)\n  at ${[first, ...rest].join(', ')}`,
      );
  }
  const summary = input.lines.find((line) => /^Found \d+ errors?/.test(line));
  const unique = [...groups.values()].reduce((sum, group) => sum + group.locations.size, 0);
  lines.push(
    summary ??
      `${unique} TypeScript error${unique === 1 ? '' : 's'}${errorCount > unique ? ` (${errorCount - unique} repeats folded)` : ''}`,
  );
  return lines.join('\n');
};
