import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError, color, printJson, printLine } from '../output.js';
import { schemaComment } from '../settings-schemas.js';
import { DEFAULT_PERSONALITY_TEMPLATE, QUIVER_YAML_TEMPLATE } from '../templates/init-templates.js';

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('Write quiver.yaml and personalities/default.yaml, with comments explaining every key.')
    .argument('[dir]', 'directory to write into', '.')
    .option('--force', 'overwrite existing files')
    .option('--json', 'machine-readable output')
    .action((dir: string, options: { force?: boolean; json?: boolean }) => {
      const root = path.resolve(dir);
      const files = [
        {
          file: path.join(root, 'quiver.yaml'),
          content: `${schemaComment('config')}${QUIVER_YAML_TEMPLATE}`,
        },
        {
          file: path.join(root, 'personalities', 'default.yaml'),
          content: `${schemaComment('personality')}${DEFAULT_PERSONALITY_TEMPLATE}`,
        },
      ];
      const existing = files
        .filter(({ file }) => existsSync(file))
        .map(({ file }) => path.relative(process.cwd(), file) || file);
      if (existing.length > 0 && !options.force) {
        throw new CliError(
          `${existing.join(' and ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written.`,
          'Run `quiver init --force` to overwrite, or edit the files.',
        );
      }
      for (const { file, content } of files) {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
      const written = files.map(({ file }) => file);
      if (options.json) printJson({ written });
      else {
        for (const file of written)
          printLine(`${color.green('wrote')} ${path.relative(process.cwd(), file) || file}`);
        printLine(
          color.dim(
            'Next: `quiver trust` to trust this configuration, `quiver tools` to see what the model sees, `quiver serve` to serve the tools over MCP.',
          ),
        );
      }
    });
}
