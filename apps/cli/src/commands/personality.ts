import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { stringify as toYaml } from 'yaml';
import { loadPluginHost, loadRuntime, openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { color, EXIT, printJson, printLine, terminalText } from '../output.js';

export function registerPersonalityCommand(program: Command): void {
  const personality = program.command('personality').description('Check and preview personality files.');
  personality
    .command('check')
    .description(
      'Validate a personality file (and what it extends): exit 2 if it is not a valid personality (a rule that does not parse included), 1 if it names tools that do not exist. Lists every inherited rule, plugin or tool the file drops.',
    )
    .argument('<path>', 'personality YAML file')
    .option('--json', 'machine-readable output')
    .action(async (file: string, options: { json?: boolean }) => {
      const { resolvePersonalityInheritance, checkPersonalityToolNames } = await loadPluginHost();
      const { DEFAULT_PERSONALITY } = await import('@quiver/wiring');
      // `extends: NAME` resolves as the host does: personalities/NAME.yaml beside quiver.yaml, or an embedded one.
      const dir = path.dirname(path.resolve(file));
      const configDir = path.basename(dir) === 'personalities' ? path.dirname(dir) : dir;
      const tools = await firstPartyToolCatalog(configDir);
      // Rules are parsed as the loaded tools' kinds, as the host does: an ask on grep_search is a path glob.
      const inheritance = resolvePersonalityInheritance(path.resolve(file), {
        searchDirs: [...new Set([configDir, process.cwd()])],
        embedded: { default: DEFAULT_PERSONALITY },
        toolKinds: tools.toolKinds,
      });
      const { personality: resolved, dropped, unmatchedRemovals } = inheritance;
      const { catalog } = tools;
      const unloadedPlugins = resolved.plugins.filter((id) => !tools.loaded.has(id));
      const issues = checkPersonalityToolNames(resolved, catalog, { unloadedPlugins });
      const failed = issues.some((issue) => issue.level === 'error');
      if (failed) process.exitCode = EXIT.toolFailed;
      if (options.json) {
        printJson({
          ok: !failed,
          id: resolved.id,
          sources: resolved.sources,
          issues,
          dropped,
          unmatchedRemovals,
        });
        return;
      }
      // What a child leaves out of what it inherits is shown, never silent: lists replace unless written as { add }.
      for (const item of dropped) {
        const where = `${item.droppedBy}${item.line === undefined ? '' : `:${item.line}:${item.column ?? 1}`}`;
        const how = item.how === 'removed' ? 'removed by' : 'replaced by the list in';
        printLine(
          `${color.yellow('dropped')} ${item.keyPath}: ${JSON.stringify(item.item)} (from ${item.inheritedFrom}) — ${how} ${where}`,
        );
      }
      if (dropped.some((item) => item.how === 'replaced'))
        printLine(
          color.dim(
            '  to keep inherited items, write the list as { add: [...] } (and { remove: [...] } to drop one on purpose)',
          ),
        );
      for (const removal of unmatchedRemovals) {
        const where = `${removal.source}${removal.line === undefined ? '' : `:${removal.line}:${removal.column ?? 1}`}`;
        printLine(
          `${color.yellow('warning')} ${removal.keyPath}: remove ${JSON.stringify(removal.item)} names nothing inherited (${where})`,
        );
      }
      for (const issue of issues) {
        const label = issue.level === 'error' ? color.red('error') : color.yellow('warning');
        printLine(`${label} ${issue.keyPath}: ${issue.message}`);
      }
      if (failed) {
        const count = issues.filter((issue) => issue.level === 'error').length;
        printLine(
          `${color.red('failed')} ${resolved.id}: ${count} unknown tool name${count === 1 ? '' : 's'}`,
        );
      } else printLine(`${color.green('ok')} ${resolved.id} (${resolved.sources.join(' ← ')})`);
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
        else process.stdout.write(terminalText(toYaml(resolved)));
      } finally {
        await quiver.close();
      }
    });
}

/**
 * The tools a personality's names are checked against: every first-party tool (loaded in a
 * throwaway directory, so the check writes nothing) and the MCP servers quiver.yaml defines.
 * No MCP server is started and no third-party plugin is run; names that may belong to one come
 * back as warnings instead of errors.
 */
async function firstPartyToolCatalog(configDir: string) {
  const { createQuiver } = await import('@quiver/wiring');
  const { findConfigFile, loadConfigFile, registeredToolKinds } = await loadPluginHost();
  const { toolNameCatalog } = await loadRuntime();
  let mcpServers: Record<string, unknown> = {};
  const configFile = findConfigFile(configDir);
  if (configFile) {
    try {
      mcpServers = loadConfigFile(configFile).mcpServers;
    } catch {
      // An invalid quiver.yaml is reported by every other command; here it only means no servers.
    }
  }
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'quiver-check-'));
  try {
    const quiver = await createQuiver({ workspace: scratch, dataDir: scratch, config: {} });
    try {
      const loaded = new Set(quiver.host.plugins().loaded.map((plugin) => plugin.id));
      const policy = { mcpServers: Object.fromEntries(Object.keys(mcpServers).map((name) => [name, {}])) };
      const registered = quiver.host.registry.list();
      const groups = registered.map((entry) => entry.tool.toolset).filter((group) => group !== undefined);
      return {
        catalog: { ...toolNameCatalog(registered, [], policy), extraNames: [...new Set(groups)] },
        loaded,
        toolKinds: registeredToolKinds(quiver.host.registry),
      };
    } finally {
      await quiver.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
