import { QuiverError } from '@quiver/types';

/** What kind of resource a rule's specifier names, which decides how it is read. */
export type SpecifierKind = 'path' | 'command' | 'url' | 'string';

const KIND_NAMES: Record<SpecifierKind, string> = {
  path: 'path glob',
  command: 'command',
  url: 'URL or domain',
  string: 'specifier',
};

/**
 * A specifier that does not parse: `config_invalid`, with what is wrong (`details.problem`) and
 * how to write it instead. The rule checker adds the rule and where it was written.
 */
export function specifierError(
  kind: SpecifierKind,
  specifier: string,
  problem: string,
  fix: string,
): QuiverError {
  return new QuiverError(
    'config_invalid',
    `The ${KIND_NAMES[kind]} "${specifier}" does not parse: ${problem}.`,
    { fix, details: { specifier, kind, problem } },
  );
}
