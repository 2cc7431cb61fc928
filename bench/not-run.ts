// What a benchmark could not measure on this machine, collected for run-all's closing list.
import { findSystemTool, SYSTEM_TOOLS, type SystemToolName } from '@quiver/test-utils/system-tools';

const notRun: { part: string; reason: string }[] = [];

/** Records that `part` did not run and why; run-all lists these at the end. */
export function recordNotRun(part: string, reason: string): void {
  notRun.push({ part, reason });
  console.log(`(not run: ${part}: ${reason})`);
}

/** True when every tool is on PATH; otherwise records `part` as not run and returns false. */
export function systemToolsPresent(part: string, tools: readonly SystemToolName[]): boolean {
  const missing = tools.filter((tool) => findSystemTool(tool) === undefined);
  if (missing.length === 0) return true;
  recordNotRun(part, missing.map((tool) => `${tool} is not on PATH (${SYSTEM_TOOLS[tool]})`).join('; '));
  return false;
}

export function notRunParts(): readonly { part: string; reason: string }[] {
  return notRun;
}
