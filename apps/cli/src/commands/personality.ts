import path from 'node:path';
import type { Command } from 'commander';
import { stringify as toYaml } from 'yaml';
import { loadPluginHost, openQuiver } from '../context.js';
import { color, printJson, printLine } from '../output.js';
import { globalOptions } from '../program.js';

export function registerPersonalityCommand(program: Command): void {
  const personality = program.command('personality').description('Check and preview personality files.');
  personality
    .command('check')
    .description('Validate a personality file (and what it extends); exit 2 with the errors if invalid.')
    .argument('<path>', 'personality YAML file')
    .option('--json', 'machine-readable output')
    .action(async (file: string, options: { json?: boolean }) => {
      const { resolvePersonality } = await loadPluginHost();
      const { DEFAULT_PERSONALITY } = await import('@quiver/wiring');
      // `extends: NAME` resolves as the host does: personalities/NAME.yaml beside quiver.yaml, or an embedded one.
      const dir = path.dirname(path.resolve(file));
      const configDir = path.basename(dir) === 'personalities' ? path.dirname(dir) : dir;
      const resolved = resolvePersonality(path.resolve(file), {
        searchDirs: [...new Set([configDir, process.cwd()])],
        embedded: { default: DEFAULT_PERSONALITY },
      });
      if (options.json) printJson({ ok: true, id: resolved.id, sources: resolved.sources });
      else printLine(`${color.green('ok')} ${resolved.id} (${resolved.sources.join(' ← ')})`);
    });
  personality
    .command('show')
    .description('Print a personality as resolved (after extends).')
    .argument('[name]', 'personality name or path (default: the config default)')
    .option('--json', 'machine-readable output')
    .action(async (name: string | undefined, options: { json?: boolean }, command: Command) => {
      const quiver = await openQuiver(globalOptions(command));
      try {
        const resolved = quiver.host.personality(name ?? quiver.defaultPersonality);
        if (options.json) printJson(resolved);
        else process.stdout.write(toYaml(resolved));
      } finally {
        await quiver.close();
      }
    });
}
