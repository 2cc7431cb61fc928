import { commandsIn, commandWords, type Recognizer, type RecognizerInput } from './reducer-input.js';

const INSTALL_COMMAND =
  /(?:^|\s|;)(?:(?:npm|pnpm|yarn|bun)(?:@\S+)?\s+(?:install|i|ci|add|update|up|upgrade)\b|yarn\s*(?:;|$)|(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+install\b)/;
const ERROR_LINE =
  /\b(?:ERR!|ERR_[A-Z_0-9]+|E404|ETARGET|ERESOLVE|error|ERROR|Error|No matching|not found|Not Found|failed)\b/;
const IMPORTANT_WARNING =
  /\b(?:peer|ERESOLVE|deprecated|vulnerabilit|conflict|unmet|incompatible|missing|requires)\b/i;
// `npm verbose exit 1` / `npm info ok`: npm's own verdict under --verbose or --loglevel info.
const SUMMARY_LINE =
  /^(?:npm verbose exit \d+$|npm info ok$|added|removed|changed|up to date|audited|found \d+ vulnerabilit|\d+ vulnerabilit|Packages: |Done in|Successfully installed|Requirement already satisfied|Already up[- ]to[- ]date|dependencies:|devDependencies:|[+-] \S+ \S+$|[└├]─ \S+$|success |✨)/i;
const NOISE =
  /^(?:Progress: |Looking in (?:indexes|links)|Collecting |Downloading |Using cached|\s*━|npm (?:http|timing|sill|verb) )/;
// npm's empty error lines, its log-file pointer, and the option list it prints after a usage error.
const NPM_ERROR_NOISE = /^npm error(?:\s*$| A complete log of this run| \[| {2,}|\s+-)/;
/** The lines that end an install: what it added, audited and found. */
const INSTALL_END =
  /^(?:added \d+|removed \d+|changed \d+|up to date|audited \d+|found \d+ vulnerabilit|\d+ vulnerabilit|Done in|Successfully installed|Already up[- ]to[- ]date|npm error A complete log of this run)/i;
/** A line only an installer prints: where its output starts after other commands'. */
const INSTALL_LINE =
  /^(?:npm (?:warn|error|WARN|ERR!|notice)|added \d+|removed \d+|changed \d+|up to date|Packages: |Progress: |Lockfile is up to date|Already up[- ]to[- ]date|Resolving|Collecting |Requirement already|Successfully installed|ERROR: (?:Could not|No matching)|dependencies:|Done in|\[\d\/\d\] |yarn (?:install|add) v|ERR_PNPM_| ERR_PNPM_|WARN )/;

/**
 * In a command line that runs more after the install (`npm ci && npm test`), the install's lines:
 * up to its last closing line (`added 12 packages`, `found 0 vulnerabilities`). What follows was
 * printed by the next commands and is read by their own reducers.
 */
function installLines(input: RecognizerInput): readonly string[] {
  if (commandsIn(input.command) < 2) return input.lines;
  // The commands before the install printed what comes before its first line.
  const first = Math.max(
    0,
    input.lines.findIndex((line) => INSTALL_LINE.test(line.trim())),
  );
  const start = input.lines.findIndex((line, index) => index >= first && INSTALL_END.test(line.trim()));
  if (start < 0) return input.lines.slice(first);
  let end = start;
  for (let index = start + 1; index < input.lines.length; index++) {
    const line = (input.lines[index] as string).trim();
    if (INSTALL_END.test(line)) end = index;
    else if (
      line !== '' &&
      !/^(?:run `npm|To address|\d+ packages? (?:is|are) looking for funding)/.test(line)
    )
      break;
  }
  return input.lines.slice(first, end + 1);
}

// pip's explanation of an error: the headline after `×` and the `note:`/`hint:` that say how to fix it.
const PIP_EXPLANATION = /^(?:× |note: |hint: )/;

/** npm, pnpm, yarn and pip installs: errors, warnings that matter and the summary, without progress noise. */
export const reduceInstallOutput: Recognizer = (input: RecognizerInput) => {
  if (!INSTALL_COMMAND.test(commandWords(input.command))) return undefined;
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const raw of installLines(input)) {
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
