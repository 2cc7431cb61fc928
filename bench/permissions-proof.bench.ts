import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PermissionEngine } from '@quiver/permissions';
import type { PermissionRules, ToolPermissionSpec } from '@quiver/types';
import { Bench } from 'tinybench';
import { PermissionEngine as FrozenPermissionEngine } from './frozen-analyzer/index.js';
import { p50MsOf, round } from './measure.js';

/**
 * Decision time of the shell analyzer that allows only what it can prove (strict reader, cross-
 * check with the grammar, program semantics, workspace-code checks) as a ratio to a frozen copy of
 * the analyzer it replaced, both measured in this process on the same commands and rules.
 */

const SHELL: ToolPermissionSpec<{ command: string }> = { kind: 'shell', command: (args) => args.command };
const CHAIN = 'git status --short && git diff --stat | tail -1; ls -la src | wc -l || echo failed';
const mustAllow = JSON.parse(
  readFileSync(new URL('../packages/permissions/test/fixtures/must-allow.json', import.meta.url), 'utf8'),
) as { rules: PermissionRules; commands: string[] };

interface Decider {
  decide(request: {
    toolName: string;
    args: unknown;
    spec?: ToolPermissionSpec;
  }): Promise<{ behavior: string }>;
}

export async function run(): Promise<void> {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-permissions-proof-bench-'));
  try {
    await fs.mkdir(path.join(workspace, 'src'));
    await fs.mkdir(path.join(workspace, 'docs'));
    await fs.writeFile(path.join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
    await fs.writeFile(path.join(workspace, 'docs', 'guide.md'), '# Guide\n');
    const options = { workspace, layers: [mustAllow.rules] };
    const engines: Record<string, Decider> = {
      frozen: new FrozenPermissionEngine(options),
      proof: new PermissionEngine(options),
    };
    const decide = (engine: Decider, command: string) =>
      engine.decide({ toolName: 'terminal', args: { command }, spec: SHELL });
    for (const engine of Object.values(engines)) await decide(engine, 'warm up the parser');
    const bench = new Bench({ time: 1000, warmupTime: 200 });
    for (const [name, engine] of Object.entries(engines)) {
      bench.add(`${name}: must-allow set (${mustAllow.commands.length} commands)`, async () => {
        for (const command of mustAllow.commands) await decide(engine, command);
      });
      bench.add(`${name}: 5-subcommand chain`, async () => {
        await decide(engine, CHAIN);
      });
    }
    globalThis.gc?.();
    await bench.run();
    const median = (name: string) => p50MsOf(bench, name, 'prefix');
    const rows = [
      ['must-allow set', 'must-allow set'],
      ['5-subcommand chain', '5-subcommand chain'],
    ].map(([label, task]) => {
      const frozen = median(`frozen: ${task}`);
      const proof = median(`proof: ${task}`);
      return {
        task: label,
        'frozen median µs': round(frozen * 1000),
        'proof median µs': round(proof * 1000),
        'proof / frozen': `${round(proof / frozen)}×`,
      };
    });
    console.table(rows);
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
