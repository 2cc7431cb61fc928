import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { VERSION } from '../global-options.js';
import { CliError, color, printJson, printLine } from '../output.js';
import { type PluginProjectNames, pluginProjectFiles } from '../templates/plugin-templates.js';

const PLUGIN_ID = /^[a-z0-9][a-z0-9._-]*$/;
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

interface PluginNewOptions {
  id?: string;
  name?: string;
  json?: boolean;
}

export function registerPluginNewCommand(program: Command): void {
  const plugin = program.command('plugin').description('Work on a plugin of your own.');
  plugin
    .command('new')
    .description(
      'Write a plugin project: a tool, a reducer, typed settings, tests against the real host, a README, build and pack scripts.',
    )
    .argument('<dir>', 'directory to create (must not exist, or be empty)')
    .option('--name <package>', 'npm package name (default: the directory name)')
    .option('--id <id>', 'plugin id that personalities list (default: the package name without its scope)')
    .option('--json', 'machine-readable output')
    .action((dir: string, options: PluginNewOptions) => {
      const root = path.resolve(dir);
      const names = projectNames(root, options);
      if (existsSync(root) && readdirSync(root).length > 0) {
        throw new CliError(
          `${dir} exists and is not empty; nothing was written.`,
          'Name a new directory, e.g. `quiver plugin new my-plugin`.',
        );
      }
      const files = pluginProjectFiles(names);
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(root, file);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
      const written = Object.keys(files).map((file) => path.join(root, file));
      if (options.json) {
        printJson({ directory: root, ...names, written });
        return;
      }
      for (const file of written) printLine(`${color.green('wrote')} ${path.relative(process.cwd(), file)}`);
      const where = path.relative(process.cwd(), root) || '.';
      if (sdkOnRegistry(names.sdkRange))
        printLine(
          color.dim(
            `Next: cd ${where} && npm install && npm test; npm pack makes the tarball to install beside @quiver/cli.`,
          ),
        );
      else
        printLine(
          color.dim(
            [
              `The Quiver SDK (@quiver/types ${names.sdkRange}) is not on the npm registry, so \`npm install\` alone cannot fetch it. Install it from tarballs:`,
              '  1. in a checkout of Quiver: pnpm build && pnpm pack:sdk   (prints a folder of .tgz files)',
              `  2. cd ${where} && npm install -D <that folder>/*.tgz && npm test`,
              'npm pack then makes the tarball to install beside @quiver/cli.',
            ].join('\n'),
          ),
        );
    });
}

/** Whether npm can fetch the SDK's published packages (it cannot before Quiver is released). */
function sdkOnRegistry(range: string): boolean {
  const result = spawnSync('npm', ['view', `@quiver/types@${range}`, 'version'], {
    encoding: 'utf8',
    timeout: 15_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return result.status === 0 && result.stdout.trim().length > 0;
}

function projectNames(root: string, options: PluginNewOptions): PluginProjectNames {
  const packageName = options.name ?? path.basename(root).toLowerCase();
  if (!PACKAGE_NAME.test(packageName)) {
    throw new CliError(
      `"${packageName}" is not a valid npm package name.`,
      'Pass --name with lowercase letters, digits, ".", "_" or "-" (optionally @scope/name).',
    );
  }
  const id = options.id ?? packageName.replace(/^@[^/]+\//, '');
  if (!PLUGIN_ID.test(id)) {
    throw new CliError(
      `"${id}" is not a valid plugin id.`,
      'Pass --id with lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.',
    );
  }
  return { packageName, id, toolPrefix: id.replace(/[.-]/g, '_'), sdkRange: `^${VERSION}` };
}
