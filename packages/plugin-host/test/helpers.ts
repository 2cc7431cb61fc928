import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

export function tempDir(prefix = 'quiver-host-'): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** Links an installed package into `dir/node_modules`, as `npm install` would have. */
export function linkDependency(dir: string, name: string): void {
  const source = path.dirname(require.resolve(`${name}/package.json`));
  const target = path.join(dir, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(source, target, 'dir');
}

/**
 * Writes a third-party plugin package (its own package.json, `quiver.plugin` entry, deps in its own
 * node_modules) with one tool per name; each tool answers `<tool>: <text>`.
 */
export function writePluginPackage(
  dir: string,
  options: {
    name: string;
    id: string;
    tools: string[];
    apiVersion?: number;
    body?: string;
    manifest?: unknown;
  },
): string {
  write(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: options.name,
        version: '1.0.0',
        type: 'module',
        quiver: options.manifest ?? { plugin: './index.js' },
      },
      null,
      2,
    ),
  );
  linkDependency(dir, 'zod');
  const tools = options.tools
    .map(
      (tool) => `ctx.registerTool({
      name: ${JSON.stringify(tool)},
      description: 'Echoes text for tests (${tool}).',
      input: z.object({ text: z.string() }),
      capabilities: {},
      execute: (args) => ({ ok: true, value: ${JSON.stringify(tool)} + ': ' + args.text }),
    });`,
    )
    .join('\n    ');
  write(
    path.join(dir, 'index.js'),
    `import { z } from 'zod';
export default {
  id: ${JSON.stringify(options.id)},
  apiVersion: ${options.apiVersion ?? 1},
  version: '1.0.0',
  register(ctx) {
    ${tools}
    ${options.body ?? ''}
  },
};
`,
  );
  return dir;
}
