import type { TrustStorage } from '@quiver/plugin-host';
import type { Command } from 'commander';
import { quiverOptions } from '../context.js';
import { globalOptions } from '../global-options.js';
import { noPersonTerminal } from '../interactive/person-terminal.js';
import { launchEnvironment } from '../launch/launch-environment.js';
import { CliError, color, EXIT, printJson, printLine } from '../output.js';
import { lineDiff } from './definition-diff.js';
import { registerMcpLoginCommand } from './mcp-login.js';
import { registerMcpServerCommands } from './mcp-servers.js';
import { type PendingDefinitionChange, pendingDefinitionChanges } from './pending-definition-changes.js';

interface ReviewOptions {
  json?: boolean;
}

export function registerMcpCommand(program: Command): void {
  const mcp = program.command('mcp').description('Add, list, inspect and approve MCP servers.');
  registerMcpLoginCommand(mcp);
  registerMcpServerCommands(mcp);
  mcp
    .command('review')
    .description(
      'Show MCP tools whose definition changed since it was pinned, and pin each change a person approves at a terminal (until then the tool is withheld).',
    )
    .option('--json', 'print the pending changes as JSON and change nothing')
    .action(async (options: ReviewOptions, command: Command) => {
      const { openQuiverProjectTrust } = await import('@quiver/wiring');
      const { inspection, trustStorage } = await openQuiverProjectTrust({
        ...quiverOptions({ ...globalOptions(command), trustProject: false }, {}),
        env: launchEnvironment() as NodeJS.ProcessEnv,
      });
      try {
        await review(inspection.workspace, trustStorage, options);
      } finally {
        await trustStorage.close();
      }
    });
}

async function review(workspace: string, trustStorage: TrustStorage, options: ReviewOptions): Promise<void> {
  const pins = await trustStorage.readPins();
  if (pins === undefined) {
    throw new CliError(
      `The pin file ${trustStorage.pinsLocation} cannot be read, so every MCP server tool is withheld.`,
      'Delete the file to pin the definitions the servers offer at the next start, or restore it from a backup.',
      EXIT.usage,
      'mcp_pins_unreadable',
    );
  }
  const changes = pendingDefinitionChanges(pins);
  if (options.json) {
    printJson({ workspace, changes });
    return;
  }
  if (changes.length === 0) {
    printLine(`No changed MCP tool definitions wait for review in ${workspace}.`);
    return;
  }
  for (const change of changes) showChange(change);
  const noPerson = noPersonTerminal();
  if (noPerson !== undefined) {
    throw new CliError(
      `\`quiver mcp review\` asks a person to approve each change, and ${noPerson}, so nothing was approved.`,
      'Run `quiver mcp review` in a terminal. Until then the changed tools stay withheld.',
      EXIT.usage,
      'review_needs_terminal',
    );
  }
  const { confirm, isCancel } = await import('@clack/prompts');
  for (const change of changes) {
    const answer = await confirm({
      message: `Approve the new definition of ${change.tool} (server "${change.server}")?`,
      initialValue: false,
    });
    if (isCancel(answer) || answer !== true) {
      printLine(`${change.tool}: still withheld.`);
      continue;
    }
    // What was shown is what gets pinned: a definition changed again meanwhile is not approved.
    if (await trustStorage.approve(change))
      printLine(
        `${color.green('approved')} ${change.tool} (a running \`quiver serve\` of this workspace offers it again)`,
      );
    else printLine(color.yellow(`${change.tool} changed again while you reviewed it; run the review again.`));
  }
}

function showChange(change: PendingDefinitionChange): void {
  printLine(color.bold(`${change.tool} (server "${change.server}")`));
  printLine(`pinned ${change.pinnedAt}, changed ${change.changedAt}`);
  for (const line of lineDiff(JSON.stringify(change.before, null, 2), JSON.stringify(change.after, null, 2)))
    printLine(
      line.startsWith('+ ') ? color.green(line) : line.startsWith('- ') ? color.red(line) : color.dim(line),
    );
  printLine();
}
