import type { Random } from './random.js';
import { ENV_PREFIXES, FALSE_BLANKS, payload, SEPARATORS, WRAPPERS } from './shell-constructs.js';

/** Characters whose meaning differs most between readers of shell text. */
const TRICKY = [
  ...FALSE_BLANKS,
  '#',
  "'",
  '"',
  '`',
  '$',
  '\\',
  ';',
  '\n',
  '&',
  '|',
  '(',
  ')',
  '{',
  '}',
  '<',
  '>',
  ' ',
  '\t',
  '$(',
  '${',
  "$'",
];

/** Seed commands: the terminal commands of a corpus file's entries. */
export function corpusCommands(corpus: {
  entries: Array<{ tool: string; args: Record<string, unknown> }>;
}): string[] {
  return corpus.entries
    .filter((entry) => entry.tool === 'terminal' && typeof entry.args.command === 'string')
    .map((entry) => (entry.args.command as string).replaceAll('@WORKSPACE@', '.'));
}

/**
 * Changes a seed command a little: inserts a payload behind a separator or a tricky character,
 * swaps one character, splices in another seed, or wraps the command in a wrapper, an
 * environment prefix or a substitution.
 */
export function mutateCommand(random: Random, seeds: readonly string[], label: string): string {
  let command = random.pick(seeds);
  const steps = 1 + random.int(3);
  for (let step = 0; step < steps; step++) command = mutateOnce(random, command, seeds, label);
  return command;
}

function mutateOnce(random: Random, command: string, seeds: readonly string[], label: string): string {
  const at = random.int(command.length + 1);
  const hidden = payload(random, label);
  switch (random.int(9)) {
    case 0:
      return `${command.slice(0, at)}${random.pick(SEPARATORS)}${hidden}${command.slice(at)}`;
    case 1:
      return `${command.slice(0, at)}${random.pick(TRICKY)}${command.slice(at)}`;
    case 2:
      return `${command.slice(0, at)}${random.pick(TRICKY)}${command.slice(at + 1)}`;
    case 3:
      return `${command.slice(0, at)}${command.slice(at + 1 + random.int(3))}`;
    case 4: {
      const other = random.pick(seeds);
      const from = random.int(other.length + 1);
      return `${command.slice(0, at)}${other.slice(from)}`;
    }
    case 5:
      return `${random.pick(WRAPPERS)} ${command}`;
    case 6:
      return `${random.pick(ENV_PREFIXES)} ${command}`;
    case 7:
      return `${command}${random.pick(SEPARATORS)}${hidden}`;
    default:
      return `${command.slice(0, at)}$(${hidden})${command.slice(at)}`;
  }
}
