import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InMemoryFilePins, PermissionEngine, programConfigurationFiles } from '@quiver/permissions';
import type { PermissionRules, ToolPermissionSpec } from '@quiver/types';
import { Bench } from 'tinybench';
import { PermissionEngine as FrozenPermissionEngine } from './frozen-workspace-model/index.js';
import { p50MsOf, round } from './measure.js';

/**
 * Decision time of the shell analyzer that models what allowed programs read from the workspace
 * (git's repository discovery and configuration, pinned package files, operands outside the
 * workspace) as a ratio to a frozen copy of the analyzer before it (commit 203e249), both measured
 * in this process on the must-allow set, in one clean workspace that is a git repository with a
 * package.json. Target: at most 1.5×.
 */

const SHELL: ToolPermissionSpec<{ command: string }> = { kind: 'shell', command: (args) => args.command };
const mustAllow = JSON.parse(
  readFileSync(new URL('../packages/permissions/test/fixtures/must-allow.json', import.meta.url), 'utf8'),
) as { rules: PermissionRules; commands: string[] };
const GIT_ONLY = mustAllow.commands.filter((command) => /(^|[;&|]\s*)git\s/.test(command));

interface Decider {
  decide(request: {
    toolName: string;
    args: unknown;
    spec?: ToolPermissionSpec;
  }): Promise<{ behavior: string }>;
}

export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-workspace-model-bench-'));
  const workspace = path.join(root, 'workspace');
  try {
    await fs.mkdir(path.join(workspace, 'src'), { recursive: true });
    await fs.mkdir(path.join(workspace, 'docs'));
    await fs.writeFile(path.join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
    await fs.writeFile(path.join(workspace, 'docs', 'guide.md'), '# Guide\n');
    await fs.writeFile(path.join(workspace, 'package.json'), '{"scripts":{"test":"vitest run"}}\n');
    execFileSync('git', ['init', '-q', workspace]);
    // The frozen analyzer distrusts files written just before its session began (its clock slack).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const pins = new InMemoryFilePins();
    pins.pin(programConfigurationFiles(workspace));
    const engines: Record<string, Decider> = {
      frozen: new FrozenPermissionEngine({ workspace, layers: [mustAllow.rules] }),
      modelled: new PermissionEngine({ workspace, layers: [mustAllow.rules], filePins: pins }),
    };
    const decide = (engine: Decider, command: string) =>
      engine.decide({ toolName: 'terminal', args: { command }, spec: SHELL });
    for (const [name, engine] of Object.entries(engines))
      for (const command of mustAllow.commands) {
        const decision = await decide(engine, command);
        if (decision.behavior !== 'allow')
          throw new Error(`${name} does not allow "${command}": the comparison would be unfair`);
      }
    const bench = new Bench({ time: 1500, warmupTime: 300 });
    for (const [name, engine] of Object.entries(engines)) {
      bench.add(`${name}: must-allow set (${mustAllow.commands.length} commands)`, async () => {
        for (const command of mustAllow.commands) await decide(engine, command);
      });
      bench.add(`${name}: git commands (${GIT_ONLY.length})`, async () => {
        for (const command of GIT_ONLY) await decide(engine, command);
      });
    }
    await bench.run();
    const median = (name: string) => p50MsOf(bench, name, 'prefix');
    console.table(
      ['must-allow set', 'git commands'].map((task) => {
        const frozen = median(`frozen: ${task}`);
        const modelled = median(`modelled: ${task}`);
        return {
          task,
          'frozen median ms': round(frozen),
          'modelled median ms': round(modelled),
          'modelled / frozen': `${round(modelled / frozen)}× (target ≤ 1.5×)`,
        };
      }),
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
