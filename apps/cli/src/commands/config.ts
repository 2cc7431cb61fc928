import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { color, printJson, printLine } from '../output.js';
import { projectSettingsFiles } from '../settings-files.js';

/** One effective setting and where it is written. */
interface Origin {
  key: string;
  value: unknown;
  scope: string;
  /** `file:line:column`, or `default`. */
  at: string;
}

/** Key paths whose items every layer adds to (deny and ask rules): each layer's entry is shown. */
const UNION_KEYS = new Set(['permissions.deny', 'permissions.ask']);
/** Maps whose entries are settings of their own (one server, one plugin's settings). */
const ENTRY_MAPS = new Set(['mcpServers', 'pluginConfig']);

function leaves(
  data: Record<string, unknown>,
  prefix: string[] = [],
): Array<{ keyPath: string[]; value: unknown }> {
  const found: Array<{ keyPath: string[]; value: unknown }> = [];
  for (const [key, value] of Object.entries(data)) {
    const keyPath = [...prefix, key];
    const joined = keyPath.join('.');
    const descend =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !UNION_KEYS.has(joined) &&
      (prefix.length === 0 ? true : !ENTRY_MAPS.has(prefix.join('.')));
    if (descend && Object.keys(value).length > 0)
      found.push(...leaves(value as Record<string, unknown>, keyPath));
    else found.push({ keyPath, value });
  }
  return found;
}

/** Every setting in effect, strongest layer first for single values, every layer for rule lists. */
async function origins(command: Command): Promise<Origin[]> {
  const { parseLocatedYamlText } = await locator();
  const { quiverConfigSchema } = await import('@quiver/plugin-host');
  const files = (await projectSettingsFiles(globalOptions(command))).filter((entry) => entry.exists);
  const result: Origin[] = [];
  const taken = new Set<string>();
  // Strongest first: managed, user, project, local.
  for (const { scope, file } of files) {
    const located = parseLocatedYamlText(readFileSync(file, 'utf8'));
    for (const { keyPath, value } of leaves(located.data)) {
      const key = keyPath.join('.');
      if (!UNION_KEYS.has(key) && taken.has(key)) continue;
      taken.add(key);
      result.push({ key, value, scope, at: `${file}:${located.line(keyPath)}` });
    }
  }
  const defaults = quiverConfigSchema.parse({}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(defaults))
    if (![...taken].some((set) => set === key || set.startsWith(`${key}.`)))
      result.push({ key, value, scope: 'default', at: 'default' });
  return result;
}

async function locator() {
  const { LineCounter, parseDocument, isMap, isScalar } = await import('yaml');
  return {
    parseLocatedYamlText(text: string) {
      const lineCounter = new LineCounter();
      const document = parseDocument(text, { lineCounter });
      return {
        data: (document.toJS() ?? {}) as Record<string, unknown>,
        line(keyPath: string[]): string {
          const parent =
            keyPath.length === 1 ? document.contents : document.getIn(keyPath.slice(0, -1), true);
          if (isMap(parent)) {
            const pair = parent.items.find(
              (item) => isScalar(item.key) && String(item.key.value) === keyPath.at(-1),
            );
            const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
            if (range) {
              const { line, col } = lineCounter.linePos(range[0]);
              return `${line}:${col}`;
            }
          }
          return '1:1';
        },
      };
    },
  };
}

export function registerConfigCommand(program: Command): void {
  const config = program
    .command('config')
    .description('Show the settings in effect and where each comes from.');
  config
    .command('show')
    .description(
      'Print each effective setting of the managed, user, project and local layers (--origin: with the file and line it comes from).',
    )
    .option('--origin', 'say where each setting is written')
    .option('--json', 'machine-readable output')
    .action(async (options: { origin?: boolean; json?: boolean }, command: Command) => {
      const settings = await origins(command);
      if (options.json) {
        printJson({ settings });
        return;
      }
      for (const setting of settings) {
        const value = JSON.stringify(setting.value);
        const where = options.origin ? `  ${color.dim(`${setting.at} (${setting.scope})`)}` : '';
        printLine(
          `${color.bold(setting.key)} = ${value.length > 100 ? `${value.slice(0, 97)}...` : value}${where}`,
        );
      }
    });
}
