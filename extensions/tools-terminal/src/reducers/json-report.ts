import type { RecognizerInput } from './reducer-input.js';
import { stripAnsi } from './reducer-input.js';
import type { TestReport } from './test-report.js';

/** Past this size a JSON report is not parsed (parsing is on the event loop). */
const MAX_JSON_CHARS = 16 * 1024 * 1024;
const MAX_DEPTH = 6;
const NAME_KEYS = ['fullName', 'fullTitle', 'nodeid', 'name', 'title'] as const;
const STATUS_KEYS = ['status', 'outcome', 'state', 'result'] as const;
const FAILED = /^(?:fail|failed|failure|error|errored|broken|timedout)$/i;
const SUMMARY_OBJECTS = ['stats', 'summary', 'totals'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function nameOf(record: JsonObject): string | undefined {
  for (const key of NAME_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The first lines of what a failed record says went wrong, wherever the reporter put it. */
function messageOf(record: JsonObject): string[] {
  const candidates: (Json | undefined)[] = [
    Array.isArray(record.failureMessages) ? record.failureMessages[0] : undefined,
    isObject(record.err) ? record.err.message : undefined,
    isObject(record.error) ? record.error.message : record.error,
    isObject(record.call) ? record.call.longrepr : undefined,
    record.longrepr,
    record.message,
    record.failureMessage,
  ];
  const text = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (text === undefined) return [];
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^at /.test(line))
    .slice(0, 3);
}

/** Where a record sits, when the reporter says: its file and line. */
function locationOf(record: JsonObject, file: string | undefined): string | undefined {
  const where = isObject(record.location) ? record.location : undefined;
  const line = typeof where?.line === 'number' ? where.line : undefined;
  const path = typeof record.file === 'string' ? record.file : file;
  if (path === undefined) return undefined;
  return line === undefined
    ? path
    : `${path}:${line}${typeof where?.column === 'number' ? `:${where.column}` : ''}`;
}

function collectFailures(
  value: Json,
  depth: number,
  file: string | undefined,
  inFailures: boolean,
  found: TestReport['failures'],
): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) collectFailures(item, depth + 1, file, inFailures, found);
    return;
  }
  if (!isObject(value)) return;
  const name = nameOf(value);
  const status = STATUS_KEYS.map((key) => value[key]).find((entry) => typeof entry === 'string');
  const failed = typeof status === 'string' ? FAILED.test(status) : inFailures && name !== undefined;
  // A file's record (jest/vitest `testResults[]`) names the file its tests sit in.
  const ownFile = Array.isArray(value.assertionResults) && typeof value.name === 'string' ? value.name : file;
  if (failed && name !== undefined && !Array.isArray(value.assertionResults)) {
    const location = locationOf(value, ownFile);
    found.push({ name, details: [...messageOf(value), ...(location ? [`at ${location}`] : [])] });
    return;
  }
  for (const [key, child] of Object.entries(value))
    if (typeof child === 'object' && child !== null)
      collectFailures(child, depth + 1, ownFile, key === 'failures', found);
}

/** The top-level counts and flags of a report, as printed (`"numFailedTests":6`). */
function summaryOf(report: JsonObject): string[] {
  const members = (object: JsonObject) =>
    Object.entries(object)
      .filter(([, value]) => typeof value === 'number' || typeof value === 'boolean')
      .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  const lines = [members(report).join(',')];
  for (const key of SUMMARY_OBJECTS) {
    const nested = report[key];
    if (isObject(nested)) lines.push(`${JSON.stringify(key)}: ${members(nested).join(',')}`);
  }
  return lines.filter((line) => line !== '' && !/: $/.test(line));
}

/** Lines before or after a JSON report that are not part of it, at most. */
const LINES_AROUND = 5;

/**
 * A test run's report printed as one JSON document (`jest --json`, `vitest --reporter=json`,
 * mocha's `json` reporter, pytest-json-report): every failed test by its name, with the first
 * lines of its message and its file, and the report's top-level counts. Undefined for output that
 * is not a JSON object with test records in it.
 */
export function jsonTestReport(input: RecognizerInput): TestReport | undefined {
  // A line or two around the report (`npm run` banners, an `echo "exit=$?"` after it) is not part of it.
  const lines = input.lines.map((line) => line.trimEnd());
  const first = lines.findIndex((line, index) => index <= LINES_AROUND && line.startsWith('{'));
  let last = lines.length - 1;
  while (last > first && last >= lines.length - 1 - LINES_AROUND && !(lines[last] as string).endsWith('}'))
    last--;
  if (first < 0) return undefined;
  const text = lines
    .slice(first, last + 1)
    .join('\n')
    .trim();
  if (!text.startsWith('{') || text.length > MAX_JSON_CHARS) return undefined;
  let report: Json;
  try {
    report = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  if (!isObject(report)) return undefined;
  const looksLikeTests =
    Array.isArray(report.testResults) || Array.isArray(report.tests) || Array.isArray(report.failures);
  if (!looksLikeTests) return undefined;
  const failures: TestReport['failures'] = [];
  collectFailures(report, 0, undefined, false, failures);
  return { runner: 'JSON test report', failures, summary: summaryOf(report) };
}
