import { plural, type Recognizer, type RecognizerInput } from './reducer-input.js';

/**
 * One JSON document too long for the budget (`curl` of an API, `npm view --json`, `kubectl get -o
 * json`, `jq .` of a file), pretty or on one line. Head and tail show its first keys and its last
 * brackets; a reader needs its shape: every top-level key with its value or, for a long one, what
 * it holds, and for an array of records the key of each record (`"name"`, `"id"`…). Lines are
 * written as the document writes them (`"key": value`), values shortened where long.
 */

/** Fields that name a record, in the order they are preferred. */
const KEY_FIELDS = [
  'name',
  'id',
  'key',
  'title',
  'slug',
  'path',
  'file',
  'filename',
  'login',
  'full_name',
  'sha',
  'number',
  'url',
  'query',
  'metadata.name',
];
/** A value shown whole up to this many characters. */
const SHORT_VALUE = 120;
/** Parsing stops being worth it past this size (the spill file may hold tens of megabytes). */
const MAX_PARSE_CHARS = 16 * 1024 * 1024;
/** Record keys listed past the budget: every one, up to this many. */
const MAX_RECORD_KEYS = 2_000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One line of JSON spaced as pretty printers space it (`{"latest": "4.6.7"}`), so it reads like the document. */
function oneLine(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (isRecord(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${oneLine(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function short(value: Json, limit = SHORT_VALUE): string {
  const text = oneLine(value);
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** A field of a record by its dotted path (`metadata.name`, as Kubernetes names its objects). */
function fieldOf(record: { [key: string]: Json }, path: string): Json | undefined {
  let value: Json | undefined = record;
  for (const part of path.split('.'))
    value = value !== undefined && isRecord(value) ? value[part] : undefined;
  return value;
}

/** The field that names the records of an array: present, and a string or number, in nearly all of them. */
function keyFieldOf(records: readonly { [key: string]: Json }[]): string | undefined {
  for (const field of KEY_FIELDS) {
    const named = records.filter((record) => {
      const value = fieldOf(record, field);
      return typeof value === 'string' || typeof value === 'number';
    }).length;
    if (named >= records.length * 0.9) return field;
  }
  return undefined;
}

function kindOf(items: readonly Json[]): string {
  const kinds = new Set(
    items.map((item) => (item === null ? 'null' : Array.isArray(item) ? 'array' : typeof item)),
  );
  if (kinds.size !== 1) return 'value';
  const [kind] = [...kinds];
  return kind === 'object' ? 'object' : (kind as string);
}

/** What an array holds, on one line: its length, its kind, and its first and last items when they are values. */
function arraySummary(items: readonly Json[]): string {
  const kind = kindOf(items);
  if (kind !== 'object' && kind !== 'array' && kind !== 'value') {
    const shown =
      items.length <= 6
        ? items.map((item) => short(item, 60))
        : [
            ...items.slice(0, 3).map((item) => short(item, 60)),
            '…',
            ...items.slice(-3).map((item) => short(item, 60)),
          ];
    return `[${plural(items.length, kind)}: ${shown.join(', ')}]`;
  }
  if (kind === 'object') {
    const fields = new Set<string>();
    for (const item of items.slice(0, 200))
      for (const field of Object.keys(item as object)) fields.add(field);
    const listed = [...fields].slice(0, 10).map((field) => JSON.stringify(field));
    return `[${plural(items.length, 'object')} with ${listed.join(', ')}${fields.size > 10 ? ', …' : ''}]`;
  }
  return `[${plural(items.length, kind === 'array' ? 'array' : 'value')}]`;
}

/** What an object holds, on one line: its keys with their values while they fit. */
function objectSummary(value: { [key: string]: Json }, limit: number): string {
  const entries = Object.entries(value);
  const parts: string[] = [];
  let used = 0;
  for (const [key, item] of entries) {
    const part = `${JSON.stringify(key)}: ${
      Array.isArray(item)
        ? `[${item.length}]`
        : isRecord(item)
          ? `{${Object.keys(item).length}}`
          : short(item, 60)
    }`;
    if (parts.length > 0 && used + part.length > limit) break;
    parts.push(part);
    used += part.length + 2;
  }
  const rest = entries.length - parts.length;
  return `{${plural(entries.length, 'key')}: ${parts.join(', ')}${rest > 0 ? `, … ${rest} more` : ''}}`;
}

/** The lines naming each record of an array, as the document writes them (`"name": "core_list_projects"`). */
function recordKeys(items: readonly Json[], indent: string): string[] {
  if (kindOf(items) !== 'object') return [];
  const records = items as { [key: string]: Json }[];
  const field = keyFieldOf(records);
  if (field === undefined) return [];
  const lines = [`${indent}${JSON.stringify(field)} of each:`];
  const name = JSON.stringify(field.split('.').at(-1));
  for (const record of records.slice(0, MAX_RECORD_KEYS))
    lines.push(`${indent}  ${name}: ${short(fieldOf(record, field) ?? null)}`);
  if (records.length > MAX_RECORD_KEYS)
    lines.push(`${indent}  [… ${plural(records.length - MAX_RECORD_KEYS, 'more record')}]`);
  return lines;
}

function describeEntry(key: string | undefined, value: Json, indent: string): string[] {
  const label = key === undefined ? '' : `${JSON.stringify(key)}: `;
  const compact = oneLine(value);
  if (compact.length <= SHORT_VALUE) return [`${indent}${label}${compact}`];
  if (Array.isArray(value))
    return [`${indent}${label}${arraySummary(value)}`, ...recordKeys(value, `${indent}  `)];
  if (isRecord(value)) return [`${indent}${label}${objectSummary(value, 200)}`];
  return [`${indent}${label}${short(value)}`];
}

/**
 * ESLint's `-f json` (and formatters that copy it): an array of `{ filePath, messages: [{ line,
 * column, severity, message, ruleId }] }`. Every message with its place, as the text formatter
 * would print it; files without messages counted.
 */
function lintReport(value: Json): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (
    !value.every(
      (file) => isRecord(file) && typeof file.filePath === 'string' && Array.isArray(file.messages),
    )
  )
    return undefined;
  const files = value as { filePath: string; messages: Json[] }[];
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const file of files) {
    for (const message of file.messages) {
      if (!isRecord(message)) continue;
      const severity = message.severity === 2 ? 'error' : 'warning';
      if (severity === 'error') errors++;
      else warnings++;
      const place = [file.filePath, message.line, message.column]
        .filter((part) => part !== undefined)
        .join(':');
      const rule = typeof message.ruleId === 'string' ? `  ${message.ruleId}` : '';
      lines.push(`${place}: ${severity} ${String(message.message ?? '')}${rule}`);
    }
  }
  const clean = files.filter((file) => file.messages.length === 0).length;
  return [
    `[ESLint JSON report: ${plural(files.length, 'file')}, ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${clean > 0 ? `; ${clean} without problems` : ''}]`,
    ...lines,
  ].join('\n');
}

/** Lines a tool printed around its JSON (npm's warnings on stderr): kept as printed, a few of them. */
const MAX_AROUND = 10;

export const reduceJsonValue: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget || input.output.length > MAX_PARSE_CHARS) return undefined;
  const lines = input.lines.map((line) => line.trimEnd());
  const first = lines.findIndex((line, index) => index <= MAX_AROUND && /^[[{]/.test(line));
  let last = lines.length - 1;
  while (last > first && last >= lines.length - MAX_AROUND && !/[\]}],?$/.test(lines[last] as string)) last--;
  if (first < 0 || last <= first - 1) return undefined;
  const text = lines
    .slice(first, last + 1)
    .join('\n')
    .trim();
  if (!/[\]}]$/.test(text)) return undefined;
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  const before = lines.slice(0, first);
  const after = lines.slice(last + 1).filter((line) => line.trim() !== '');
  const around = (body: string) => [...before, body, ...after].join('\n');
  const size = plural(text.length, 'character');
  const lint = lintReport(value);
  if (lint !== undefined) return around(lint);
  if (Array.isArray(value)) {
    return around([`[JSON array, ${size}]`, arraySummary(value), ...recordKeys(value, '')].join('\n'));
  }
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value);
  const out = [`[JSON object, ${plural(entries.length, 'key')}, ${size}; every key, long values summarised]`];
  for (const [key, item] of entries.slice(0, MAX_RECORD_KEYS)) out.push(...describeEntry(key, item, ''));
  if (entries.length > MAX_RECORD_KEYS)
    out.push(`[… ${plural(entries.length - MAX_RECORD_KEYS, 'more key')}]`);
  return around(out.join('\n'));
};
