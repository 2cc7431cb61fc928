import { fail, ok, type ToolResult } from '@quiver/types';
import { formatBytes, OutputWindow } from './output-window.js';

/** The structured part of a terminal result. */
export interface TerminalRunData {
  command: string;
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** Where the full output is, when it did not fit in the result. */
  spillFile?: string;
  /** The spill file holds only the beginning of the output: it reached its size limit. */
  spillCapped?: boolean;
  truncated: boolean;
  outputBytes: number;
  sandboxed: boolean;
  timedOut?: boolean;
  aborted?: boolean;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The first line of every terminal result: how the command ended and where the rest of its output is. */
export function terminalHeader(data: TerminalRunData, options: { duration?: boolean } = {}): string {
  const parts: string[] = [];
  if (data.timedOut) parts.push(`timed out after ${formatDuration(data.durationMs)}; process group killed`);
  else if (data.aborted) parts.push('aborted; process group killed');
  else if (data.signal) parts.push(`killed by ${data.signal}`);
  else parts.push(`exit code ${data.exitCode}`);
  if (options.duration !== false && !data.timedOut) parts.push(formatDuration(data.durationMs));
  if (data.sandboxed) parts.push('sandboxed');
  if (data.truncated) {
    parts.push(`${formatBytes(data.outputBytes)} of output, middle cut${spillNote(data)}`);
  }
  return `[${parts.join(' · ')}]`;
}

function spillNote(data: TerminalRunData): string {
  if (!data.spillFile) return '';
  return data.spillCapped
    ? `; the beginning of the output (up to the spill limit) in ${data.spillFile}`
    : `; full output in ${data.spillFile}`;
}

export function terminalResult(
  data: TerminalRunData,
  output: string,
  options: { duration?: boolean } = {},
): ToolResult {
  const text = `${terminalHeader(data, options)}\n${output.length > 0 ? output : '(no output)'}`;
  if (data.timedOut) return fail('timeout', text, data);
  if (data.aborted) return fail('aborted', text, data);
  if (data.exitCode !== 0) return fail('execution_failed', text, data);
  return ok(text, { structured: data });
}

/** Splits a terminal result's text into its header line and the command output. */
export function splitTerminalText(text: string): { header: string; output: string } | undefined {
  const newline = text.indexOf('\n');
  if (!text.startsWith('[') || newline < 0 || text[newline - 1] !== ']') return undefined;
  return { header: text.slice(0, newline), output: text.slice(newline + 1) };
}

/**
 * The result the `terminal` tool would have produced for this raw output (same window, same
 * formatting), for `quiver reduce` and other tools that replay captured output. With `spillDir`,
 * an output that outgrows the window is spilled there as the tool would spill it, so its reducer
 * counts all of it; the caller owns (and removes) that directory.
 */
export function terminalResultFromRaw(raw: {
  command: string;
  output: string;
  exitCode: number;
  cwd?: string;
  spillDir?: string;
}): ToolResult {
  const window = new OutputWindow(raw.spillDir === undefined ? {} : { spillDir: raw.spillDir });
  window.write(Buffer.from(raw.output, 'utf8'));
  window.close();
  const windowed = window.result();
  const data: TerminalRunData = {
    command: raw.command,
    cwd: raw.cwd ?? process.cwd(),
    exitCode: raw.exitCode,
    signal: null,
    durationMs: 0,
    truncated: windowed.truncated,
    outputBytes: windowed.totalBytes,
    sandboxed: false,
  };
  if (windowed.spillFile !== undefined) data.spillFile = windowed.spillFile;
  if (windowed.spillCapped) data.spillCapped = true;
  return terminalResult(data, windowed.text, { duration: false });
}
