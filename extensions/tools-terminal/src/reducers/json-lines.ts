import {
  counted,
  countsOf,
  firstAndLast,
  plural,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/**
 * JSON lines: one JSON object a line, as structured loggers write them (pino, bunyan, winston's
 * JSON format, zap, logrus, structlog) and as `docker logs` shows such a service. Head and tail
 * show the same routine record thousands of times; a reader asks what happened: how many records
 * over what time, by level and by message, every record at warning level or above, then the first
 * and the last records.
 */

const MIN_RECORDS = 20;
/** Share of the non-empty lines that must be JSON objects. */
const MIN_JSON_SHARE = 0.8;
/** Share of the records that must carry a level or a message for the output to be read as a log. */
const MIN_LOG_SHARE = 0.5;
const LEVEL_FIELDS = ['level', 'severity', 'lvl', 'levelname', 'log.level', 'loglevel', 'level_name'];
const MESSAGE_FIELDS = ['msg', 'message', 'event', 'text'];
const TIME_FIELDS = ['time', 'timestamp', 'ts', '@timestamp', 'datetime', 'date', 't'];
/** Fields shown first when a record is written out, so its level and message survive a cut. */
const LEADING_FIELDS = [...TIME_FIELDS, ...LEVEL_FIELDS, ...MESSAGE_FIELDS, 'err', 'error', 'exception'];
/** pino's and bunyan's numeric levels. */
const NUMERIC_LEVELS: readonly [number, string][] = [
  [60, 'fatal'],
  [50, 'error'],
  [40, 'warn'],
  [30, 'info'],
  [20, 'debug'],
  [10, 'trace'],
];
const SEVERITY: Record<string, number> = {
  trace: 0,
  debug: 1,
  info: 2,
  notice: 2,
  warn: 3,
  error: 4,
  fatal: 5,
  critical: 5,
  alert: 5,
  emergency: 5,
  panic: 5,
};
const LEVEL_ALIASES: Record<string, string> = {
  warning: 'warn',
  err: 'error',
  crit: 'critical',
  emerg: 'emergency',
  dpanic: 'panic',
  information: 'info',
  verbose: 'debug',
  silly: 'trace',
};
const WARN_SEVERITY = 3;
const MAX_GROUPS = 10;
const MAX_SHOWN_CHARS = 300;
const MAX_FLAGGED_CHARS = 1_500;
/** Lines that are not JSON (a banner, a raw stack trace) kept as printed, at most this many. */
const MAX_OTHER_LINES = 10;

type JsonObject = { [key: string]: unknown };

interface LogRecord {
  line: string;
  value: JsonObject;
  level?: string;
  message?: string;
}

function field(record: JsonObject, names: readonly string[]): unknown {
  for (const name of names) {
    if (name in record) return record[name];
    if (name.includes('.')) {
      const [outer, inner] = name.split('.') as [string, string];
      const nested = record[outer];
      if (typeof nested === 'object' && nested !== null && inner in nested)
        return (nested as JsonObject)[inner];
    }
  }
  return undefined;
}

function levelName(value: unknown): string | undefined {
  if (typeof value === 'number')
    return NUMERIC_LEVELS.find(([floor]) => value >= floor)?.[1] ?? String(value);
  if (typeof value !== 'string' || value === '') return undefined;
  const name = value.toLowerCase();
  return LEVEL_ALIASES[name] ?? name;
}

function parseRecord(line: string): LogRecord | undefined {
  const text = line.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as JsonObject;
  const message = field(record, MESSAGE_FIELDS);
  return {
    line: text,
    value: record,
    level: levelName(field(record, LEVEL_FIELDS)),
    message: typeof message === 'string' ? message : undefined,
  };
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more chars]`;
}

/** The record as compact JSON with its time, level, message and error first, so a cut keeps them. */
function leadingFirst(record: JsonObject): string {
  const ordered: JsonObject = {};
  for (const name of LEADING_FIELDS) if (name in record) ordered[name] = record[name];
  for (const [name, value] of Object.entries(record)) if (!(name in ordered)) ordered[name] = value;
  return JSON.stringify(ordered);
}

function groupsLine(label: string, groups: readonly [string, number][], quote: boolean): string {
  const shown = groups
    .slice(0, MAX_GROUPS)
    .map(
      ([name, count]) => `${quote ? JSON.stringify(clip(name, 80)) : name} ${count.toLocaleString('en-US')}`,
    );
  const more =
    groups.length > MAX_GROUPS ? `, … ${(groups.length - MAX_GROUPS).toLocaleString('en-US')} more` : '';
  return `${label}: ${shown.join(', ')}${more}`;
}

export const reduceJsonLines: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  // Cheap refusal first: most lines of a JSON-lines output start with `{`.
  if (lines.filter((line) => line.trimStart().startsWith('{')).length < lines.length * MIN_JSON_SHARE)
    return undefined;
  const records: LogRecord[] = [];
  const others: string[] = [];
  for (const line of lines) {
    const record = parseRecord(line);
    if (record) records.push(record);
    else others.push(line);
  }
  if (records.length < MIN_RECORDS || records.length < lines.length * MIN_JSON_SHARE) return undefined;
  const logLike = records.filter((record) => record.level !== undefined || record.message !== undefined);
  if (logLike.length < records.length * MIN_LOG_SHARE) return undefined;

  const times = records
    .map((record) => field(record.value, TIME_FIELDS))
    .filter((time): time is string | number => typeof time === 'string' || typeof time === 'number');
  const span = times.length > 0 ? ` from ${times[0]} to ${times.at(-1)}` : '';
  const out = [`${counted(records.length, 'JSON record', input.partial)}${span}`];
  const levels = countsOf(records.map((record) => record.level));
  if (levels.length > 0) out.push(groupsLine('by level', levels, false));
  const messages = countsOf(records.map((record) => record.message));
  if (messages.length > 0) out.push(groupsLine('by message', messages, true));
  const fields = new Set<string>();
  for (const record of records) for (const name of Object.keys(record.value)) fields.add(name);
  out.push(`fields: ${[...fields].slice(0, 40).join(', ')}${fields.size > 40 ? ', …' : ''}`);

  const flagged = records.filter((record) => (SEVERITY[record.level ?? ''] ?? 0) >= WARN_SEVERITY);
  let used = out.join('\n').length;
  if (flagged.length > 0) {
    out.push(`${counted(flagged.length, 'record', input.partial)} at warning level or above:`);
    // Each flagged record gets a share of what is left, never less than a readable line.
    const each = Math.max(MAX_SHOWN_CHARS, Math.min(MAX_FLAGGED_CHARS, Math.floor(input.budget * 0.3)));
    let shown = 0;
    for (const record of flagged) {
      const text = clip(leadingFirst(record.value), each);
      if (shown >= 3 && used + text.length > input.budget * 0.7) break;
      out.push(text);
      used += text.length + 1;
      shown++;
    }
    if (shown < flagged.length)
      out.push(`[… ${plural(flagged.length - shown, 'more record')} at warning level or above not shown]`);
  }
  if (others.length > 0) {
    out.push(`${plural(others.length, 'line')} not JSON:`);
    for (const line of others.slice(0, MAX_OTHER_LINES)) out.push(clip(line, MAX_SHOWN_CHARS));
    if (others.length > MAX_OTHER_LINES)
      out.push(`[… ${(others.length - MAX_OTHER_LINES).toLocaleString('en-US')} more]`);
    used = out.join('\n').length;
  }
  // First and last records as printed, alternating, while the budget lasts.
  const room = Math.max(MAX_SHOWN_CHARS * 2, input.budget - used);
  const shown = records.map((record) => clip(record.line, MAX_SHOWN_CHARS));
  out.push(...firstAndLast(shown, room, 'first and last records:', 'record'));
  return out.join('\n');
};
