import type { ReducerInput, ToolResult, ToolResultReducer } from '@quiver/types';
import { type ReadFileStructured, readFileHeader } from '../tools/read-file.js';

/** Lines an unconstrained read keeps. */
export const READ_FILE_DEFAULT_LINES = 200;

function hasExplicitRange(args: unknown): boolean {
  if (typeof args !== 'object' || args === null) return false;
  const record = args as Record<string, unknown>;
  return record.start_line !== undefined || record.end_line !== undefined;
}

function isReadFileStructured(value: unknown): value is ReadFileStructured {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.totalLines === 'number' &&
    typeof record.startLine === 'number' &&
    typeof record.endLine === 'number'
  );
}

/**
 * Cuts a read without a range to its first 200 lines and says how to read on. A read with an
 * explicit range is what the model asked for and is never cut here.
 */
export const readFileReducer: ToolResultReducer = {
  tool: 'read_file',
  reduce(result: ToolResult, input: ReducerInput): ToolResult {
    if (!result.ok || hasExplicitRange(input.args) || !isReadFileStructured(result.structured)) return result;
    const info = result.structured;
    if (info.endLine - info.startLine + 1 <= READ_FILE_DEFAULT_LINES) return result;
    const endLine = info.startLine + READ_FILE_DEFAULT_LINES - 1;
    const lines = result.value.split('\n');
    const kept = lines.slice(1, READ_FILE_DEFAULT_LINES + 1);
    const hint = `[${info.path} has ${info.totalLines} lines; showing ${info.startLine}-${endLine}. Call read_file with start_line and end_line (e.g. start_line: ${endLine + 1}, end_line: ${Math.min(info.totalLines, endLine + READ_FILE_DEFAULT_LINES)}) to read more.]`;
    const value = [
      readFileHeader(info.path, info.totalLines, info.bytes, info.startLine, endLine),
      ...kept,
      hint,
    ].join('\n');
    if (value.length >= result.value.length) return result;
    const reduced: ToolResult = { ...result, value, structured: { ...info, endLine, truncated: true } };
    return reduced;
  },
};
