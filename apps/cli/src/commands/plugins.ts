import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { color, EXIT, printJson, printLine } from '../output.js';

export function registerPluginsCommand(program: Command): void {
  program
    .command('plugins')
    .description(
      'List loaded plugins with their tools, and the plugins that failed to load with why (exit code 1 when any failed).',
    )
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) => {
      const quiver = await openQuiver(globalOptions(command));
      try {
        const status = quiver.host.plugins();
        if (status.failed.length > 0) process.exitCode = EXIT.toolFailed;
        if (options.json) {
          printJson(status);
          return;
        }
        for (const plugin of status.loaded) {
          printLine(
            `${color.green('✓')} ${color.bold(plugin.id)}@${plugin.version} ${color.dim(plugin.source)}`,
          );
          printLine(`    ${plugin.tools.length ? plugin.tools.join(', ') : color.dim('(no tools)')}`);
          for (const setting of plugin.settings ?? []) {
            const detail = [
              setting.type,
              setting.required ? 'required' : undefined,
              'default' in setting ? `default ${JSON.stringify(setting.default)}` : undefined,
            ].filter(Boolean);
            printLine(
              `    ${color.dim('setting')} ${setting.key} (${detail.join(', ')})${setting.description ? ` ${setting.description}` : ''}`,
            );
          }
        }
        for (const failure of status.failed) {
          printLine(
            `${color.red('✗')} ${color.bold(failure.plugin)} ${color.red(`[${failure.code}]`)} ${failure.message}`,
          );
          if (failure.fix) printLine(`    ${color.dim('fix:')} ${failure.fix}`);
        }
      } finally {
        await quiver.close();
      }
    });
}
