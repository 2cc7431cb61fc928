import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  effectiveCaseSensitive,
  GrepCollector,
  type GrepEngineResult,
  type GrepQuery,
  lineText,
} from './grep-query.js';

/** Path of `rg` on PATH, or undefined. */
export function findRipgrep(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('which', ['rg'], (error, stdout) => resolve(error ? undefined : stdout.trim() || undefined));
  });
}

export function ripgrepArguments(query: GrepQuery): string[] {
  const args = [
    '--json',
    '--no-config',
    '--sort=path',
    '--hidden',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    '--no-messages',
    '--glob=!.git',
    effectiveCaseSensitive(query) ? '--case-sensitive' : '--ignore-case',
  ];
  if (query.fixedStrings) args.push('--fixed-strings');
  if (query.contextLines > 0) args.push(`--context=${query.contextLines}`);
  for (const glob of query.include) args.push(`--glob=${glob}`);
  for (const glob of query.exclude) args.push(`--glob=!${glob}`);
  args.push('--regexp', query.pattern, '--', '.');
  return args;
}

interface RipgrepText {
  text?: string;
  bytes?: string;
}

function decodeRipgrepText(value: RipgrepText | undefined): string {
  if (value === undefined) return '';
  if (value.text !== undefined) return value.text;
  return Buffer.from(value.bytes ?? '', 'base64').toString('utf8');
}

function relativePath(raw: string): string {
  return raw.startsWith('./') ? raw.slice(2) : raw;
}

/** Runs `rg --json` in `directory`, stopping it as soon as the result is full. */
export function grepWithRipgrep(
  binary: string,
  directory: string,
  query: GrepQuery,
  signal?: AbortSignal,
): Promise<GrepEngineResult> {
  return new Promise((resolve) => {
    const child = spawn(binary, ripgrepArguments(query), {
      cwd: directory,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    const collector = new GrepCollector(query);
    let stderr = '';
    let stopped = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (raw) => {
      if (stopped) return;
      const message = JSON.parse(raw) as {
        type: string;
        data: { path?: RipgrepText; lines?: RipgrepText; line_number?: number };
      };
      if (message.type === 'begin') collector.beginFile(relativePath(decodeRipgrepText(message.data.path)));
      else if (message.type === 'end') collector.endFile();
      else if (message.type === 'match' || message.type === 'context') {
        const keepGoing = collector.addLine({
          number: message.data.line_number ?? 0,
          text: lineText(decodeRipgrepText(message.data.lines)),
          kind: message.type,
        });
        if (!keepGoing) {
          stopped = true;
          child.kill();
        }
      }
    });
    child.on('error', (error) => {
      if (!stopped) resolve({ ok: false, error: `ripgrep failed to start: ${error.message}` });
    });
    child.on('close', (code) => {
      if (!stopped && code === 2 && collector.matchCount === 0) {
        resolve({ ok: false, error: stderr.trim() || 'ripgrep failed (exit code 2).' });
        return;
      }
      resolve({ ok: true, outcome: collector.outcome() });
    });
  });
}
