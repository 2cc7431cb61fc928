import { commandWords, type Recognizer, type RecognizerInput } from './reducer-input.js';

const INSTALL_COMMAND =
  /(?:^|\s|;)(?:(?:npm|pnpm|yarn|bun)(?:@\S+)?\s+(?:install|i|ci|add|update|up|upgrade)\b|yarn\s*(?:;|$)|(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+install\b)/;
const ERROR_LINE =
  /\b(?:ERR!|ERR_[A-Z_0-9]+|E404|ETARGET|ERESOLVE|error|ERROR|Error|No matching|not found|Not Found|failed)\b/;
const IMPORTANT_WARNING =
  /\b(?:peer|ERESOLVE|deprecated|vulnerabilit|conflict|unmet|incompatible|missing|requires)\b/i;
const SUMMARY_LINE =
  /^(?:added|removed|changed|up to date|audited|found \d+ vulnerabilit|\d+ vulnerabilit|Packages: |Done in|Successfully installed|Requirement already satisfied|Already up[- ]to[- ]date|dependencies:|devDependencies:|[+-] \S+ \S+$|[└├]─ \S+$|success |✨)/i;
const NOISE =
  /^(?:Progress: |Looking in (?:indexes|links)|Collecting |Downloading |Using cached|\s*━|npm (?:http|timing|sill|verb) )/;
// npm's empty error lines, its log-file pointer, and the option list it prints after a usage error.
const NPM_ERROR_NOISE = /^npm error(?:\s*$| A complete log of this run| \[| {2,}|\s+-)/;
// pip's explanation of an error: the headline after `×` and the `note:`/`hint:` that say how to fix it.
const PIP_EXPLANATION = /^(?:× |note: |hint: )/;

/** npm, pnpm, yarn and pip installs: errors, warnings that matter and the summary, without progress noise. */
export const reduceInstallOutput: Recognizer = (input: RecognizerInput) => {
  if (!INSTALL_COMMAND.test(commandWords(input.command))) return undefined;
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const raw of input.lines) {
    const line = raw.replace(/\u2009/g, ' ').trimEnd();
    if (line.trim().length === 0 || NOISE.test(line) || NPM_ERROR_NOISE.test(line) || seen.has(line))
      continue;
    const isWarning = /^(?:npm warn|WARN|warning|WARNING)\b/i.test(line.trim());
    const keep = isWarning
      ? IMPORTANT_WARNING.test(line)
      : ERROR_LINE.test(line) || SUMMARY_LINE.test(line.trim()) || PIP_EXPLANATION.test(line);
    if (!keep) continue;
    seen.add(line);
    kept.push(line);
  }
  if (kept.length === 0) return input.exitCode === 0 ? 'install finished' : undefined;
  return kept.join('\n');
};
