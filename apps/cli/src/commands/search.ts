import type { Command } from 'commander';
import { loadRuntime, openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { CliError, color, printJson, printLine } from '../output.js';

export function registerSearchCommand(program: Command): void {
  program
    .command('search')
    .description('Search the current pool the way tool_search does: ranked keywords, or /regex/.')
    .argument('<query>', 'keywords, or /pattern/flags for a regex search')
    .option('-l, --limit <n>', 'how many tools to return', '10')
    .option('-p, --personality <name|path>', 'personality whose pool is searched')
    .option('--json', 'machine-readable output')
    .action(
      async (
        query: string,
        options: { limit: string; personality?: string; json?: boolean },
        command: Command,
      ) => {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1)
          throw new CliError(
            `--limit must be a positive whole number, got "${options.limit}".`,
            'Pass e.g. --limit 5.',
          );
        const quiver = await openQuiver(globalOptions(command), options);
        const { searchTools } = await loadRuntime();
        try {
          const session = quiver.createSession(
            options.personality ? { personality: options.personality } : {},
          );
          await session.ready();
          const pool = session.pool();
          const candidates = [...pool.definitions];
          const found = searchTools(query, candidates, limit);
          if (options.json) {
            printJson({ query, count: found.length, tools: found });
            return;
          }
          if (found.length === 0) printLine(color.dim(`No tool matches "${query}".`));
          for (const [index, tool] of found.entries()) {
            printLine(
              `${String(index + 1).padStart(2)}. ${color.bold(tool.name)}  ${color.dim((tool.description.split('\n')[0] ?? '').slice(0, 100))}`,
            );
          }
        } finally {
          await quiver.close();
        }
      },
    );
}
