/** What a test-run recognizer found: each failing test with its first error lines, and the summary. */
export interface TestReport {
  runner: string;
  /** `file`: the test file a runner printed the failure under (jest's `FAIL suite/a.test.js`). */
  failures: { name: string; details: string[]; file?: string }[];
  summary: string[];
  /** Lines printed before the run that a developer acts on too (a build's warnings), kept under the summary. */
  notes?: string[];
}

export const ERROR_LINES_PER_FAILURE = 6;

/** Splits `lines` into blocks that start where `isStart` matches; each block ends before the next start or `isEnd`. */
export function blocks(
  lines: readonly string[],
  isStart: (line: string) => boolean,
  isEnd: (line: string) => boolean,
): string[][] {
  const found: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    if (isStart(line)) {
      current = [line];
      found.push(current);
    } else if (current && isEnd(line)) {
      current = undefined;
    } else {
      current?.push(line);
    }
  }
  return found;
}

/** The first meaningful lines of a failure: no blanks, code frames, carets or stack frames past the first. */
export function firstErrorLines(
  lines: readonly string[],
  isNoise: (line: string) => boolean = () => false,
): string[] {
  const kept: string[] = [];
  let stackFrames = 0;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.length === 0 || isNoise(trimmed)) continue;
    if (/^(?:at |❯ )/.test(trimmed) && ++stackFrames > 1) continue;
    kept.push(trimmed);
    if (kept.length >= ERROR_LINES_PER_FAILURE) break;
  }
  // Where it failed matters more than the sixth line of a diff: a first frame past the cut is added.
  if (stackFrames === 0) {
    const frame = lines.map((line) => line.trim()).find((line) => FRAME_WITH_LOCATION.test(line));
    if (frame !== undefined) kept.push(frame);
  }
  return kept;
}

const FRAME_WITH_LOCATION = /^(?:at |❯ )\S.*:\d+(?::\d+)?\)?$/;

export const isCodeFrame = (line: string) => /^(?:>?\s*\d+\s*\||\|)/.test(line) || /^[\s^~]+$/.test(line);
