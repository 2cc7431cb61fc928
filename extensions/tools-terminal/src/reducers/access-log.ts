import {
  counted,
  countsOf,
  firstAndLast,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/**
 * HTTP access logs: one request a line, as web servers and frameworks print them (the common and
 * combined formats of nginx and Apache, Python's `http.server`, gunicorn, morgan's `dev` format).
 * Head and tail show a thousand `200`s; a reader asks how the requests were answered and which
 * failed: the counts by status and by method, every request answered 4xx or 5xx as printed, the
 * other lines that report a problem, then the first and last lines.
 */

const METHODS = 'GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE';
/** `"GET /orders HTTP/1.1" 404 153` (common/combined log format). */
const QUOTED_REQUEST = new RegExp(`"(${METHODS}) (\\S+) HTTP/[\\d.]+" (\\d{3})\\b`);
/** `GET /orders 404 3.217 ms - 153` (morgan `dev`, many frameworks). */
const BARE_REQUEST = new RegExp(`\\b(${METHODS}) (\\S+) (\\d{3}) [\\d.]+ ?ms\\b`);
const MIN_REQUESTS = 20;
/** Share of the non-empty lines that must be requests. */
const MIN_REQUEST_SHARE = 0.5;
const MAX_LINE = 240;
const PROBLEM = /\b(?:error|exception|traceback|failed|refused|timeout|timed out|code [45]\d\d)\b/i;

interface Request {
  line: string;
  method: string;
  path: string;
  status: number;
}

function requestOf(line: string): Request | undefined {
  const match = QUOTED_REQUEST.exec(line) ?? BARE_REQUEST.exec(line);
  if (!match) return undefined;
  return { line, method: match[1] as string, path: match[2] as string, status: Number(match[3]) };
}

function clip(line: string): string {
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE)}…`;
}

function tally(values: readonly string[]): string {
  return countsOf(values)
    .map(([value, count]) => `${value} ${count.toLocaleString('en-US')}`)
    .join(', ');
}

export const reduceAccessLog: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const requests: Request[] = [];
  const others: string[] = [];
  for (const line of lines) {
    const request = requestOf(line);
    if (request) requests.push(request);
    else others.push(line);
  }
  if (requests.length < MIN_REQUESTS || requests.length < lines.length * MIN_REQUEST_SHARE) return undefined;
  // A log of the same line over and over (a health check polled without timestamps) reads best as
  // each run once with its count, which the generic reducer gives.
  const repeats = lines.filter((line, index) => index > 0 && line === lines[index - 1]).length;
  if (repeats >= lines.length / 2) return undefined;
  const out = [
    `${counted(requests.length, 'request', input.partial)}`,
    `by status: ${tally(requests.map((request) => String(request.status)))}`,
    `by method: ${tally(requests.map((request) => request.method))}`,
    `most requested: ${clip(
      tally(requests.map((request) => request.path.replace(/\?.*$/, '')))
        .split(', ')
        .slice(0, 8)
        .join(', '),
    )}`,
  ];
  let used = out.join('\n').length;
  const failed = requests.filter((request) => request.status >= 400);
  if (failed.length > 0) {
    out.push(`${counted(failed.length, 'request', input.partial)} answered 4xx or 5xx:`);
    let shown = 0;
    for (const request of failed) {
      const line = clip(request.line);
      if (shown > 0 && used + line.length + 1 > input.budget * 0.6) break;
      out.push(line);
      used += line.length + 1;
      shown++;
    }
    if (shown < failed.length) {
      const paths = tally(failed.slice(shown).map((request) => `${request.status} ${request.path}`));
      out.push(`[… ${(failed.length - shown).toLocaleString('en-US')} more: ${clip(paths)}]`);
    }
  }
  // Lines that are not requests but report a problem, each message once with its count.
  const problems = new Map<string, number>();
  for (const line of others) if (PROBLEM.test(line)) problems.set(line, (problems.get(line) ?? 0) + 1);
  const byMessage = new Map<string, number>();
  for (const [line, count] of problems) {
    // The same message at other times is one message: the text after a bracketed time.
    const message = line.replace(/^.*?\] /, '');
    byMessage.set(message, (byMessage.get(message) ?? 0) + count);
  }
  if (byMessage.size > 0) {
    out.push('other lines reporting a problem:');
    for (const [message, count] of [...byMessage].slice(0, 10))
      out.push(`${clip(message)}${count > 1 ? `  [× ${count.toLocaleString('en-US')}]` : ''}`);
  }
  const nonProblems = others.filter((line) => !PROBLEM.test(line)).slice(0, 5);
  if (nonProblems.length > 0) out.push('other lines:', ...nonProblems.map(clip));
  used = out.join('\n').length;
  const room = Math.max(2 * MAX_LINE, input.budget - used);
  out.push(
    ...firstAndLast(
      requests.map((request) => clip(request.line)),
      room,
      'first and last requests:',
      'request',
    ),
  );
  return out.join('\n');
};
