import { counted, type Recognizer, type RecognizerInput } from './reducer-input.js';

const TESTCASE = /<testcase\b[^>]*?\bname="([^"]*)"[^>]*>/;
const CLASSNAME = /\bclassname="([^"]*)"/;
const PROBLEM = /<(failure|error)\b([^>]*?)(\/?)>/;
const MESSAGE = /\bmessage="([^"]*)"/;
const SKIPPED = /<skipped\b/;
const MAX_BODY_LINES = 8;

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * A JUnit XML report printed to the terminal (`vitest --reporter=junit`, jest-junit, pytest
 * `--junitxml=/dev/stdout`, surefire): the totals counted from its test cases, every failing or
 * erroring case with its class, message and the first lines of its details while the budget
 * lasts, and how many passed and were skipped. Passing cases are only counted.
 */
export const reduceJunitXml: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  if (!/<testsuites?\b/.test(input.output) || !TESTCASE.test(input.output)) return undefined;
  const header = input.lines.find((line) => /<testsuites\b/.test(line))?.trim();
  let cases = 0;
  let skipped = 0;
  const suites = new Set<string>();
  const problems: { name: string; kind: string; message: string; body: string[] }[] = [];
  let current: { name: string; suite: string } | undefined;
  let body: string[] | undefined;
  for (const line of input.lines) {
    const testcase = TESTCASE.exec(line);
    if (testcase) {
      cases++;
      const suite = CLASSNAME.exec(line)?.[1] ?? '';
      suites.add(suite);
      current = { name: unescapeXml(testcase[1] as string), suite: unescapeXml(suite) };
    }
    if (SKIPPED.test(line)) skipped++;
    const problem = PROBLEM.exec(line);
    if (problem && current) {
      const message = unescapeXml(MESSAGE.exec(problem[2] as string)?.[1] ?? '');
      const entry = {
        name: current.suite === '' ? current.name : `${current.suite} > ${current.name}`,
        kind: problem[1] as string,
        message,
        body: [] as string[],
      };
      problems.push(entry);
      body = problem[3] === '/' || /<\/(failure|error)>/.test(line) ? undefined : entry.body;
      continue;
    }
    if (body) {
      if (/<\/(failure|error)>/.test(line)) body = undefined;
      else if (line.trim() !== '') body.push(unescapeXml(line.trim()));
    }
  }
  if (cases === 0) return undefined;
  const failed = problems.length;
  const lines = [
    ...(header ? [header] : []),
    `${counted(cases, 'test case', input.partial)} in ${counted(suites.size, 'suite', input.partial)}: ${failed.toLocaleString('en-US')} failed or errored, ${skipped.toLocaleString('en-US')} skipped, ${(cases - failed - skipped).toLocaleString('en-US')} passed`,
  ];
  let used = lines.reduce((sum, line) => sum + line.length + 1, 0);
  // Every failing case's name and message is a record's key: kept whatever the budget.
  for (const problem of problems) {
    const key = `${problem.kind.toUpperCase()} ${problem.name}${problem.message ? `: ${problem.message}` : ''}`;
    lines.push(key);
    used += key.length + 1;
  }
  for (const problem of problems) {
    const details = problem.body.filter((line) => line !== problem.message).slice(0, MAX_BODY_LINES);
    const size = details.reduce((sum, line) => sum + line.length + 3, problem.name.length + 2);
    if (details.length === 0 || used + size > input.budget) continue;
    lines.push('', `${problem.name}:`, ...details.map((line) => `  ${line}`));
    used += size;
  }
  return lines.join('\n');
};
