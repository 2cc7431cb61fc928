import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyzeShellCommand, matchesCommandPrefix, PermissionEngine } from '@quiver/permissions';
import type { ToolPermissionSpec } from '@quiver/types';
import { Bench } from 'tinybench';
import { p50Ms, round } from './measure.js';

/**
 * Cost of a permission decision: parsing a shell command with the bash grammar, checking every
 * subcommand, redirect and path argument (with symlink resolution), against a baseline of
 * matching one pre-split argv against one prefix rule, measured in the same run.
 */

const SHELL: ToolPermissionSpec<{ command: string }> = { kind: 'shell', command: (args) => args.command };
const READ: ToolPermissionSpec<{ path: string }> = { kind: 'read', paths: (args) => [args.path] };
const COMPOUND =
  'cd src && git status --short | grep ts; npm run test:unit -- --watch=false > /tmp/out.log 2>&1 || echo failed';

export async function run(): Promise<void> {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-permissions-bench-'));
  try {
    await fs.mkdir(path.join(workspace, 'src', 'deep', 'er'), { recursive: true });
    await fs.mkdir(path.join(workspace, 'secrets'));
    const engine = new PermissionEngine({
      workspace,
      layers: [
        {
          allow: [
            'terminal(git status:*)',
            'terminal(grep:*)',
            'terminal(npm run test:*)',
            'terminal(echo:*)',
            'terminal(cat:*)',
            'read_file(src/**)',
            'write_file(/tmp/**)',
          ],
          deny: ['terminal(rm:*)', 'read_file(secrets/**)', 'write_file(secrets/**)'],
        },
      ],
    });
    await analyzeShellCommand('warm up the parser');
    const bench = new Bench({ time: 500, warmupTime: 100 });
    bench
      .add('baseline: matchesCommandPrefix on a split argv', () => {
        matchesCommandPrefix('git status:*', ['git', 'status', '--short']);
      })
      .add('analyzeShellCommand: simple command', async () => {
        await analyzeShellCommand('git status --short');
      })
      .add('decide: simple allowed command', async () => {
        await engine.decide({ toolName: 'terminal', args: { command: 'git status --short' }, spec: SHELL });
      })
      .add('decide: 5 subcommands, cd, pipe, redirect', async () => {
        await engine.decide({ toolName: 'terminal', args: { command: COMPOUND }, spec: SHELL });
      })
      .add('decide: cat of a nested path (path denies + realpath)', async () => {
        await engine.decide({
          toolName: 'terminal',
          args: { command: 'cat src/deep/er/file.ts src/deep/other.ts' },
          spec: SHELL,
        });
      })
      .add('decide: read_file path rule', async () => {
        await engine.decide({ toolName: 'read_file', args: { path: 'src/deep/er/file.ts' }, spec: READ });
      });
    globalThis.gc?.();
    await bench.run();
    const medians = bench.tasks.map((task) => ({ name: task.name, median: p50Ms(task) }));
    const baseline = medians[0]?.median as number;
    console.table(
      medians.map(({ name, median }) => ({
        task: name,
        'median µs': round(median * 1000),
        'vs baseline': `${round(median / baseline)}×`,
      })),
    );
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
