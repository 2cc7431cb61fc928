import { filesLine, groupLinesWithin, rulesLine, totalLine } from './lint-report.js';
import { DEFAULT_REDUCER_BUDGET, type Recognizer, type RecognizerInput } from './reducer-input.js';

/** ShellCheck's default (tty) format: `In scripts/a.sh line 3:`, the source line, a `^--^ SC2086 (info): …` marker. */
const PLACE = /^In (.+) line (\d+):$/;
const MARKER = /^\s*\^[-^]*\s+(SC\d{4}) \((\w+)\): (.*\S)\s*$/;

interface Finding {
  file: string;
  line: string;
  code: string;
  severity: string;
  message: string;
}

const printed = (finding: Finding) =>
  `In ${finding.file} line ${finding.line}: ${finding.code} (${finding.severity}): ${finding.message}`;

/**
 * ShellCheck's report: each finding on one line (`In a.sh line 3: SC2086 (info): …`) without the
 * source line, its marker and the suggested fix; past the budget, every script and code with its
 * count and each code's places while room is left, the rarest codes first.
 */
export const reduceShellcheckOutput: Recognizer = (input: RecognizerInput) => {
  const findings: Finding[] = [];
  let place: RegExpExecArray | null = null;
  for (const line of input.lines) {
    const opened = PLACE.exec(line);
    if (opened) {
      place = opened;
      continue;
    }
    const marker = MARKER.exec(line);
    if (marker && place)
      findings.push({
        file: place[1] as string,
        line: place[2] as string,
        code: marker[1] as string,
        severity: marker[2] as string,
        message: marker[3] as string,
      });
  }
  if (findings.length < 2) return undefined;
  const files = findings.map((finding) => finding.file);
  const total = totalLine(findings.length, new Set(files).size, input.partial);
  const whole = [total, ...findings.map(printed)];
  const limit = Math.max(input.budget, DEFAULT_REDUCER_BUDGET);
  if (whole.join('\n').length <= limit) return whole.join('\n');
  const header = [
    total,
    filesLine(files, input.partial),
    rulesLine(
      findings.map((finding) => finding.code),
      input.partial,
    ) as string,
  ];
  const kinds = new Map<string, Finding[]>();
  for (const finding of findings) {
    const title = `${finding.code} (${finding.severity}): ${finding.message}`;
    kinds.set(title, [...(kinds.get(title) ?? []), finding]);
  }
  // Each kind's first finding as printed, then the kind with its places.
  const firsts = [...kinds.values()].map((members) => printed(members[0] as Finding));
  const groups = [...kinds].map(([title, members]) => ({
    title,
    places: members.map((finding) => `In ${finding.file} line ${finding.line}`),
  }));
  const room = limit - [...header, ...firsts].join('\n').length - 1;
  const grouped = groupLinesWithin(groups, room);
  return [...header, ...grouped.flatMap((line, index) => [firsts[index] as string, line])].join('\n');
};
