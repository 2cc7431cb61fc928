import type { Recognizer, RecognizerInput } from './reducer-input.js';

/**
 * Diagnostics printed as framed blocks (Biome, and linters in its style): a headline with the
 * location and the rule, `src/a.ts:4:10 lint/style/noNonNullAssertion ━━━━`, then the message
 * marked `!`, `×` or `i`, a code frame and advice. Each block becomes one line, location, rule and
 * message; the counts and notes at the end are kept as printed.
 */

// The location is a file, with `:line:column` when the diagnostic points into it (`src/a.ts format ━━━` does not).
const HEADLINE = /^(\S+) (\S+)(?:\s+[A-Z]+)*\s+━{3,}\s*$/;
const MESSAGE = /^\s+[!×✖i⚠] (\S.*)$/;
const TRAILER =
  /^(?:Found \d+ (?:errors?|warnings?|infos?)\.|Diagnostics not shown: \d+\.|Checked \d+ files?\b|The number of diagnostics exceeds|\s*× Some (?:errors|warnings) were emitted)/;

export const reduceFramedDiagnostics: Recognizer = (input: RecognizerInput) => {
  const entries: string[] = [];
  const trailer: string[] = [];
  let pending: { where: string; rule: string } | undefined;
  for (const line of input.lines) {
    const headline = HEADLINE.exec(line);
    if (headline) {
      if (pending) entries.push(`${pending.where} ${pending.rule}`);
      pending = { where: headline[1] as string, rule: headline[2] as string };
      continue;
    }
    const message = pending === undefined ? undefined : MESSAGE.exec(line);
    if (pending && message) {
      entries.push(`${pending.where} ${pending.rule}: ${message[1]}`);
      pending = undefined;
      continue;
    }
    if (TRAILER.test(line)) trailer.push(line.trim());
  }
  if (pending) entries.push(`${pending.where} ${pending.rule}`);
  if (entries.length === 0) return undefined;
  return [...entries, ...trailer].join('\n');
};
