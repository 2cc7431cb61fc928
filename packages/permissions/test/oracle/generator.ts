// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell text, where ${…} is a parameter expansion.
import { Random } from './random.js';
import {
  allowedBase,
  ENV_PREFIXES,
  FALSE_BLANKS,
  GIT_TRICKS,
  heredoc,
  NAME_DISGUISES,
  NPM_BASES,
  PARAMETER_OPERATORS,
  payload,
  SEPARATORS,
  WRAPPERS,
} from './shell-constructs.js';

/** Mixes a run's seed and a command's index, so that command K of seed S is the same in every run. */
export function commandRandom(seed: number, index: number): Random {
  return new Random(seed, index);
}

/**
 * A command built from the bash grammar: an allowed base command with a construct that hides a
 * payload (a canary program or file) in a quote, comment, here-document, expansion operand,
 * arithmetic context, array subscript, loop, redirection, wrapper or environment prefix.
 */
export function generateCommand(random: Random, label: string): string {
  const hidden = payload(random, label);
  const base = allowedBase(random);
  const shapes: Array<() => string> = [
    () => `${base} ${falseBlankComment(random)}${random.pick(SEPARATORS)}${hidden}`,
    () => `${base} ${randomWord(random, 3)}${random.pick(SEPARATORS)}${hidden}`,
    () => `${base} ${ansiC(random)}${random.pick(SEPARATORS)}${hidden}`,
    () => heredoc(random, hidden),
    () => `${base} ${expansion(random, hidden)}`,
    () => `${base} ${arithmetic(random, hidden)}`,
    () => arrayConstruct(random, base, hidden),
    () => loop(random, base, hidden),
    () => `${base} ${redirect(random, hidden, label)}`,
    () => `${random.pick(WRAPPERS)} ${quoteMaybe(random, hidden)}`,
    () => `${random.pick(WRAPPERS)} ${base}`,
    () => {
      const prefix = random.pick(ENV_PREFIXES);
      return `${prefix} ${/npm|node/i.test(prefix) ? random.pick(NPM_BASES) : base}`;
    },
    () => `${random.pick(ENV_PREFIXES)} ${random.pick(WRAPPERS)} ${base}`,
    () => random.pick(GIT_TRICKS).replaceAll('canary-git', `canary-${label}`),
    () => disguisedProgram(random, label),
    () => `${base} ${substitution(random, hidden, 0)}`,
    () => `${base} ${comment(random, hidden)}`,
    () => sourced(random),
    () => `${base} ${soup(random, hidden)}`,
    () => `${base} ${soup(random, hidden)}`,
    () => `${base} ${soup(random, '')}${random.pick(SEPARATORS)}${hidden}`,
  ];
  let command = random.pick(shapes)();
  if (random.chance(0.15)) command = `${allowedBase(random)}${random.pick(SEPARATORS)}${command}`;
  if (random.chance(0.1)) command = `${command}${random.pick([';', '\n', ' &&'])} ${allowedBase(random)}`;
  return command;
}

/** Characters that open, close or escape something in some reader of shell text. */
const SOUP = [
  "'",
  '"',
  '\\',
  ' ',
  '#',
  ';',
  'a',
  '$',
  '`',
  '\n',
  '\t',
  '\v',
  '\r',
  '{',
  '}',
  '(',
  ')',
  '|',
  '&',
  '<',
  '>',
  '!',
  '*',
  '[',
  ']',
  '~',
  '=',
  '-',
  "$'",
  '$"',
  '\\\n',
  '#;',
];

/** A short run of quoting and separator characters with the payload somewhere inside. */
function soup(random: Random, hidden: string): string {
  const length = 2 + random.int(8);
  const at = random.int(length + 1);
  let text = '';
  for (let index = 0; index <= length; index++) {
    if (index === at)
      text += `${random.pick(['', ';', '\n', '&&', '|'])}${hidden}${random.pick(['', ';', '\n', ' #'])}`;
    if (index < length) text += random.pick(SOUP);
  }
  return text;
}

function falseBlankComment(random: Random): string {
  return `a${random.pick(FALSE_BLANKS)}#${random.chance(0.5) ? randomWord(random, 1) : ''}`;
}

function quoteMaybe(random: Random, text: string): string {
  return random.pick([text, `'${text}'`, `"${text}"`, `$'${text}'`]);
}

function ansiC(random: Random): string {
  const escapes = ['\\\\', "\\'", '\\x27', '\\047', '\\u0027', '\\c', '\\e', '\\"', "'", '\\', '#', ';'];
  let body = '';
  for (let index = random.int(4) + 1; index > 0; index--) body += random.pick([...escapes, 'a', ' ']);
  return `$'${body}'${random.chance(0.5) ? "'" : ''}`;
}

function randomWord(random: Random, depth: number): string {
  let word = '';
  for (let index = random.int(3) + 1; index > 0; index--) {
    const part = random.int(12);
    if (part === 0) word += random.pick(['a', 'b1', '-x', '--y=z', '.', '~', '*', '?', '[a]', '{a,b}']);
    else if (part === 1) word += `'${random.pick(['', 'a b', '#', ';', '\\', '$(x)', '"'])}'`;
    else if (part === 2) word += `"${random.pick(['', 'a b', '#', ';', '\\"', '\\', '$x', '`x`', "'"])}"`;
    else if (part === 3) word += ansiC(random);
    else if (part === 4) word += `$"${random.pick(['a', '$x', '\\"'])}"`;
    else if (part === 5) word += random.pick(FALSE_BLANKS);
    else if (part === 6)
      word += random.pick(['\\#', '\\;', '\\|', '\\&', '\\"', "\\'", '\\$', '\\`', '\\\\']);
    else if (part === 7) word += random.pick(['$x', '${x}', '$1', '$@', '$?', '$$', '${#x}', '$_']);
    else if (part === 8 && depth > 0)
      word += `\${x${random.pick(PARAMETER_OPERATORS)}${randomWord(random, depth - 1)}}`;
    else if (part === 9) word += random.pick(['#', 'a#', '\\ #', '"#"', '$#', '${#}']);
    else if (part === 10) word += random.pick(['\t', ' ', '  ', '\\\n']);
    else word += random.pick(['x', 'y', '0', '=', ':', ',', '@', '%', '^']);
  }
  return word;
}

function expansion(random: Random, hidden: string): string {
  const operator = random.pick(PARAMETER_OPERATORS);
  const inner = random.chance(0.5) ? `$(${hidden})` : `\`${hidden}\``;
  const name = random.pick(['x', 'HOME', 'PWD', '1', '@', 'a[0]', '!x']);
  const operand = random.pick([inner, `"${inner}"`, `'${inner}'`, `a${inner}b`, `*${inner}`, `\\${inner}`]);
  return random.chance(0.5) ? `\${${name}${operator}${operand}}` : `"\${${name}${operator}${operand}}"`;
}

function arithmetic(random: Random, hidden: string): string {
  const sub = `$(${hidden})`;
  return random.pick([
    `$(( a[${sub}] ))`,
    `$(( 1 + ${sub} ))`,
    `$[ a[${sub}] ]`,
    `\${x:a[${sub}]}`,
    `\${x:0:a[${sub}]}`,
    `\${a[${sub}]}`,
    `\${#a[${sub}]}`,
    `$(( x=a['${sub}'] ))`,
  ]);
}

function arrayConstruct(random: Random, base: string, hidden: string): string {
  const sub = `$(${hidden})`;
  return random.pick([
    `a=([${sub}]=1) ${base}`,
    `a[${sub}]=1; ${base}`,
    `declare -a a=([${sub}]=1); ${base}`,
    `declare -i x='a[${sub}]'; ${base}`,
    `(( a[${sub}] )); ${base}`,
    `[[ a -eq a[${sub}] ]] && ${base}`,
    `[ -v 'a[${sub}]' ]; ${base}`,
    `test -v 'a[${sub}]'; ${base}`,
    `printf -v 'a[${sub}]' x; ${base}`,
    `read 'a[${sub}]' <<< x; ${base}`,
    `let 'a[${sub}]'; ${base}`,
    `unset 'a[${sub}]'; ${base}`,
    `export a[${sub}]=1; ${base}`,
    `local a; ${base}`,
  ]);
}

function loop(random: Random, base: string, hidden: string): string {
  return random.pick([
    `for x in $(${hidden}); do ${base}; done`,
    `for x in a; do ${hidden}; done`,
    `for ((i=0; i<a[$(${hidden})]; i++)); do ${base}; done`,
    `while ${hidden}; do break; done; ${base}`,
    `until ${base}; do ${hidden}; break; done`,
    `if ${base}; then ${hidden}; fi`,
    `case $(${hidden}) in *) ${base};; esac`,
    `case x in x) ${hidden};; esac`,
    `f() { ${hidden}; }; f`,
    `function ${base.split(' ')[0]} { ${hidden}; }; ${base}`,
    `${base.split(' ')[0]}() { ${hidden}; }; ${base}`,
    `x=$(${hidden}) ${base}`,
    `x=\`${hidden}\`; ${base}`,
    `{ ${hidden}; }; ${base}`,
    `( ${hidden} ); ${base}`,
    `! ${hidden}; ${base}`,
    `coproc ${hidden}; ${base}`,
    `trap '${hidden}' EXIT; ${base}`,
    `shopt -s expand_aliases; alias ${base.split(' ')[0]}='${hidden}'\n${base}`,
    `hash -p /usr/bin/touch ${base.split(' ')[0]}; ${base} canary-hash`,
    `enable -n echo; ${base}`,
  ]);
}

function redirect(random: Random, hidden: string, label: string): string {
  const target = random.pick([
    `canary-${label}`,
    `"$(${hidden})"`,
    `$(${hidden})`,
    `\`${hidden}\``,
    `canary-${label}\\ x`,
  ]);
  const operator = random.pick([
    '>',
    '>>',
    '>|',
    '&>',
    '&>>',
    '2>',
    '<>',
    '>&',
    '1>',
    '3>',
    '<',
    '<<<',
    '0<',
  ]);
  return `${operator}${random.pick(['', ' '])}${target}`;
}

function substitution(random: Random, hidden: string, depth: number): string {
  const inner = depth < 2 && random.chance(0.3) ? `echo ${substitution(random, hidden, depth + 1)}` : hidden;
  return random.pick([
    `$(${inner})`,
    `\`${inner}\``,
    `"$(${inner})"`,
    `<(${inner})`,
    `>(${inner})`,
    `$(<(${inner}))`,
    `"\`${inner}\`"`,
    `$( ${inner} )`,
    `$(\n${inner}\n)`,
    `$(case x in x) ${inner};; esac)`,
    `$(# comment )\n${inner})`,
  ]);
}

function comment(random: Random, hidden: string): string {
  return random.pick([
    `# $(${hidden})`,
    `#\n${hidden}`,
    `a#b; ${hidden}`,
    `"#"; ${hidden}`,
    `\\#; ${hidden}`,
    `'a'#; ${hidden}`,
    `$'a'#; ${hidden}`,
    `#\\\n${hidden}`,
    `# '\n${hidden}`,
    `\${x#}; ${hidden}`,
  ]);
}

function disguisedProgram(random: Random, label: string): string {
  const disguise = random.pick(NAME_DISGUISES);
  return `${disguise('touch')} canary-${label}`;
}

function sourced(random: Random): string {
  return random.pick([
    'source scripts/payload.sh',
    '. scripts/payload.sh',
    'bash scripts/payload.sh',
    'sh scripts/payload.sh',
    './scripts/payload.sh',
    'source <(echo touch canary-source)',
    '. /dev/stdin <<< "touch canary-source"',
    'bash <<< "touch canary-source"',
    'echo touch canary-source | bash',
    'echo touch canary-source | sh',
    'bash -s <<< "touch canary-source"',
  ]);
}
