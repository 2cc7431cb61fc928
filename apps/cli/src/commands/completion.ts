import type { Command } from 'commander';
import { CliError, printJson } from '../output.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** Each command path (`''`, `mcp`, `mcp add`) with the subcommands and options typed after it. */
function commandTable(root: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const visit = (command: Command, prefix: string) => {
    const words = [
      ...command.commands.map((child) => child.name()),
      ...command.options.flatMap((option) =>
        [option.long, option.short].filter((flag) => flag !== undefined),
      ),
      '--help',
    ];
    table.set(prefix, [...new Set(words)]);
    for (const child of command.commands) visit(child, prefix ? `${prefix} ${child.name()}` : child.name());
  };
  visit(root, '');
  return table;
}

/** Words are command names and flags: letters, digits, `-`; nothing that needs quoting in a script. */
const SAFE = /^[A-Za-z0-9-]+$/;

function bashScript(table: Map<string, string[]>): string {
  const cases = [...table]
    .map(([path, words]) => `    "${path}") words="${words.filter((word) => SAFE.test(word)).join(' ')}" ;;`)
    .join('\n');
  return `# quiver completion for bash: eval "$(quiver completion bash)" in ~/.bashrc
_quiver_complete() {
  local path="" word i words
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "\${path:+$path }$word" in
${[...table.keys()]
  .filter((key) => key !== '')
  .map((key) => `      "${key}") path="${key}" ;;`)
  .join('\n')}
    esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _quiver_complete quiver
`;
}

function zshScript(table: Map<string, string[]>): string {
  return `#compdef quiver
# quiver completion for zsh: eval "$(quiver completion zsh)" in ~/.zshrc (after compinit)
autoload -U bashcompinit && bashcompinit
${bashScript(table)}`;
}

function fishScript(table: Map<string, string[]>): string {
  const lines = [
    '# quiver completion for fish: quiver completion fish > ~/.config/fish/completions/quiver.fish',
    'complete -c quiver -f',
  ];
  for (const [path, words] of table) {
    const parts = path === '' ? [] : path.split(' ');
    const condition =
      parts.length === 0 ? `__fish_use_subcommand` : `__fish_seen_subcommand_from ${parts.at(-1)}`;
    for (const word of words.filter((candidate) => SAFE.test(candidate))) {
      if (word.startsWith('--')) lines.push(`complete -c quiver -n '${condition}' -l ${word.slice(2)}`);
      else if (word.startsWith('-')) lines.push(`complete -c quiver -n '${condition}' -s ${word.slice(1)}`);
      else lines.push(`complete -c quiver -n '${condition}' -a ${word}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script for quiver: bash, zsh or fish.')
    .argument('<shell>', SHELLS.join(' | '))
    .option('--json', 'print { shell, script } as JSON')
    .action((shell: string, options: { json?: boolean }, command: Command) => {
      if (!SHELLS.includes(shell as Shell))
        throw new CliError(`Unknown shell "${shell}".`, `Use one of: ${SHELLS.join(', ')}.`);
      // Registered with every command (see command-table.ts): the root holds them all.
      let root = command;
      while (root.parent) root = root.parent;
      const table = commandTable(root);
      const script =
        shell === 'bash' ? bashScript(table) : shell === 'zsh' ? zshScript(table) : fishScript(table);
      if (options.json) printJson({ shell, script });
      else process.stdout.write(script);
    });
}
