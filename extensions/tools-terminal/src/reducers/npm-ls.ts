import { commandWords, type Recognizer, type RecognizerInput } from './reducer-input.js';

const NPM_LS = /(?:^|\s|;)npm(?:@\S+)?\s+(?:ls|list|la|ll)\b/;
const TREE_LINE = /^((?:[│ ] )*)[├└]─[─┬] (.+)$/;
const PROBLEM = /\b(?:UNMET DEPENDENCY|extraneous|invalid|missing)\b/;
// npm itself does not count an optional dependency left out on this platform (fsevents) as a problem.
const OPTIONAL_LEFT_OUT = /UNMET OPTIONAL DEPENDENCY/;

/**
 * `npm ls`: the root, every top-level dependency, and every problem (missing, extraneous,
 * invalid) with the chain of packages that leads to it; healthy deeper packages are only counted.
 */
export const reduceNpmLsOutput: Recognizer = (input: RecognizerInput) => {
  if (!NPM_LS.test(commandWords(input.command))) return undefined;
  const root = input.lines.find((line) => /^\S+@\S+(?: \/.*)?$/.test(line) && !/^npm /.test(line));
  if (root === undefined) return undefined;
  const topLevel: string[] = [];
  const problems: string[] = [];
  const chain: string[] = [];
  let deeper = 0;
  let optionalLeftOut = 0;
  for (const line of input.lines) {
    const match = TREE_LINE.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 2;
    const entry = (match[2] as string).trim();
    chain.length = depth;
    chain.push(entry.replace(/ deduped$/, ''));
    if (depth === 0) topLevel.push(entry);
    else if (!entry.endsWith(' deduped')) deeper++;
    if (PROBLEM.test(entry)) problems.push(chain.join(' › '));
    else if (OPTIONAL_LEFT_OUT.test(entry)) optionalLeftOut++;
  }
  const errors = input.lines.filter(
    (line) => /^npm (?:error|ERR!) \S/.test(line) && !/A complete log of this run/.test(line),
  );
  const warnings = input.lines.filter((line) => /^npm warn/i.test(line) && PROBLEM.test(line));
  const lines = [root, `${topLevel.length} top-level: ${topLevel.join(', ')}`];
  if (deeper > 0) lines.push(`${deeper} deeper packages, not listed`);
  if (optionalLeftOut > 0)
    lines.push(`${optionalLeftOut} optional dependencies not installed (not a problem)`);
  if (problems.length > 0)
    lines.push(`problems (${problems.length}):`, ...problems.map((line) => `  ${line}`));
  return [...lines, ...warnings, ...errors].join('\n');
};
