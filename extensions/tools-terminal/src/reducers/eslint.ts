import { filesLine, groupLinesWithin, type PlaceGroup, rulesLine } from './lint-report.js';
import {
  DEFAULT_REDUCER_BUDGET,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?$/;
const SUMMARY = /^✖ \d+ problems? \(/;

interface Problem {
  file: string;
  location: string;
  severity: string;
  message: string;
  rule: string;
}

/** The parent of the directory the files share, so each name keeps its last directory (`src/a.js`). */
function sharedPrefix(files: readonly string[]): string {
  const first = files[0] ?? '';
  // The parent of `/` is '' (lastIndexOf with a negative start would find the `/` again, forever).
  const parent = (prefix: string) =>
    prefix.length <= 1 ? '' : prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  let prefix = first.slice(0, first.lastIndexOf('/') + 1);
  while (prefix.length > 0 && !files.every((file) => file.startsWith(prefix))) prefix = parent(prefix);
  return parent(prefix);
}

/**
 * ESLint's stylish output: problems grouped by rule and message, each group listing every place it
 * occurs (`file:line:col`), file names relative to the parent of the directory they share. A message that only
 * differs by a quoted name is one group, with the names beside the places.
 */
export const reduceEslintOutput: Recognizer = (input: RecognizerInput) => {
  const summary = input.lines.filter(
    (line) => SUMMARY.test(line) || /potentially fixable with the/.test(line),
  );
  if (summary.length === 0) return undefined;
  const problems: Problem[] = [];
  let file: string | undefined;
  for (const line of input.lines) {
    const problem = PROBLEM.exec(line);
    if (problem && file) {
      const [, row, column, severity, message, rule] = problem as unknown as string[];
      problems.push({
        file,
        location: `${row}:${column}`,
        severity: severity as string,
        message: (message as string).trim(),
        rule: rule ?? '',
      });
    } else if (/^\S/.test(line) && !SUMMARY.test(line) && !/^npm /.test(line) && !WINDOW_CUT_LINE.test(line))
      file = line.trim();
  }
  if (problems.length === 0) return undefined;
  const directory = sharedPrefix([...new Set(problems.map((problem) => problem.file))]);
  const groups = new Map<string, Problem[]>();
  for (const problem of problems) {
    const key = `${problem.severity} ${problem.rule} ${problem.message.replace(/'[^']*'/g, "'…'")}`;
    groups.set(key, [...(groups.get(key) ?? []), problem]);
  }
  const lines = [...summary.map((line) => line.trim())];
  if (directory) lines.push(`in ${directory}:`);
  const placeGroups: PlaceGroup[] = [];
  for (const [key, members] of groups) {
    const first = members[0] as Problem;
    const same = members.every((member) => member.message === first.message);
    const title = same ? `${first.severity} ${first.rule} ${first.message}`.replace('  ', ' ') : key;
    const places = members.map((member) => {
      const place = `${member.file.slice(directory.length)}:${member.location}`;
      return same ? place : `${place} ${(member.message.match(/'[^']*'/g) ?? []).join(' ')}`;
    });
    placeGroups.push({ title, places });
  }
  const everyPlace = groupLinesWithin(placeGroups, Number.POSITIVE_INFINITY);
  const limit = Math.max(input.budget, DEFAULT_REDUCER_BUDGET);
  const size = (items: readonly string[]) => items.reduce((sum, line) => sum + line.length + 1, 0);
  if (size(lines) + size(everyPlace) <= limit) return [...lines, ...everyPlace].join('\n');
  // Past the budget: every file and rule with its count, then each kind's places while room is left.
  const files = filesLine(
    problems.map((problem) => problem.file.slice(directory.length)),
    input.partial,
  );
  const rules = rulesLine(
    problems.map((problem) => problem.rule || undefined),
    input.partial,
  );
  lines.push(files, ...(rules === undefined ? [] : [rules]));
  return [...lines, ...groupLinesWithin(placeGroups, limit - size(lines))].join('\n');
};
