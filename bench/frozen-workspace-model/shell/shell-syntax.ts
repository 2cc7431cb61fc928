// Bash syntax facts the analyzer relies on.

export const MAX_DEPTH = 8;
export const MAX_WORKING_DIRECTORIES = 16;

/** Node types that hold other statements and run nothing by themselves. */
export const CONTAINER_TYPES = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'do_group',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'case_statement',
  'case_item',
  'function_definition',
  'negated_command',
]);

/** Word-like nodes: they run nothing unless they contain a substitution. */
export const WORD_TYPES = new Set([
  'word',
  'number',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'variable_name',
  'extglob_pattern',
  'regex',
]);

export const SUBSTITUTION_TYPES = new Set([
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);
export const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash']);
/** Commands that run text as shell code or change how later commands are looked up. */
export const CODE_RUNNING_BUILTINS = new Map([
  ['eval', 'eval runs its arguments as shell code'],
  ['source', 'source runs a file as shell code'],
  ['.', '. runs a file as shell code'],
  ['trap', 'trap runs its argument as shell code later'],
  ['alias', 'alias changes what later command names mean'],
  ['hash', 'hash changes where later command names are looked up'],
  ['enable', 'enable can load builtins from shared objects'],
  ['let', 'let evaluates arithmetic, which can run commands through array subscripts'],
  ['fc', 'fc re-runs commands from the history'],
  ['coproc', 'coproc runs a command in the background'],
  ['watch', 'watch runs its arguments through sh -c'],
  ['su', 'su runs a shell as another user'],
  ['script', 'script runs a shell'],
  ['set', 'set changes how later commands are read and run (set -k makes any NAME=value an assignment)'],
  ['shopt', 'shopt changes how later commands are read and run'],
  ['compgen', 'compgen -C and -F run commands'],
  ['complete', 'complete registers commands to run'],
  ['mapfile', 'mapfile -C runs a callback as shell code'],
  ['readarray', 'readarray -C runs a callback as shell code'],
]);
export const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
export const HARMLESS_WRITE_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
/**
 * Environment variables a command may set: none of them names a program, a configuration file or
 * code to load. Compared exactly (bash names are case-sensitive), so `ci` or `Npm_Config_X` ask.
 */
export const INERT_VARIABLES = new Set([
  'CI',
  'NODE_ENV',
  'FORCE_COLOR',
  'NO_COLOR',
  'COLUMNS',
  'LINES',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_COLLATE',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'DEBUG',
]);

/** Builtins that take variable names: a name with a subscript (`a[$(id)]`) is evaluated as arithmetic. */
export const VARIABLE_NAME_BUILTINS = new Set([
  'read',
  'printf',
  'mapfile',
  'readarray',
  'getopts',
  'unset',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'wait',
  'test',
  '[',
]);

/**
 * `${name}`, `${#name}` and the default/trim/replace/case operators are plain text; subscripts
 * and offsets are evaluated as arithmetic and `${!x}`/`${x@P}` re-expand a value, which can run
 * `$(…)` hidden in a variable.
 */
export function isPlainParameterExpansion(text: string): boolean {
  const match = /^\$\{#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)\}$/s.exec(text);
  if (!match) return false;
  const rest = match[2] as string;
  return rest === '' || /^(:?[-=+?]|##?|%%?|\/[/#%]?|\^\^?|,,?)/.test(rest);
}
