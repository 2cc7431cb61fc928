import { spawn } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect } from 'vitest';
import { BIN, REPO, tempDirs, write } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

const dirs = tempDirs('quiver-python-agent-');
afterEach(() => dirs.cleanup());

function runPython(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, { env: { ...serveEnv(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('examples/python-agent', () => {
  itWithSystemTools(['python3'])(
    'runs as its README says, with quiver on PATH and a new directory it fills with a demo project',
    async () => {
      const readme = readFileSync(path.join(REPO, 'examples/python-agent/README.md'), 'utf8');
      const line = readme.split('\n').find((candidate) => candidate.startsWith('python3 agent.py')) as string;
      expect(line).toBe(
        'python3 agent.py --workspace /tmp/quiver-python-demo --quiver "quiver --trust-project"',
      );
      // `quiver` on PATH, as the README's install route puts it there.
      const bin = dirs.make();
      write(
        path.join(bin, 'quiver'),
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
      );
      chmodSync(path.join(bin, 'quiver'), 0o755);
      const workspace = path.join(dirs.make(), 'quiver-python-demo');
      const run = await runPython(
        [
          path.join(REPO, 'examples/python-agent/agent.py'),
          '--workspace',
          workspace,
          '--quiver',
          'quiver --trust-project',
        ],
        { PATH: `${bin}:${process.env.PATH ?? ''}` },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`wrote a demo project in ${workspace}`);
      expect(JSON.parse(run.stdout)).toMatchObject({ permissionAsked: ['book_table'] });
      const full = await runPython([path.join(REPO, 'examples/python-agent/agent.py'), '--workspace', bin]);
      expect(full.code).not.toBe(0);
      expect(full.stderr).toContain('is not empty and lacks quiver.yaml');
    },
    60_000,
  );

  itWithSystemTools(['python3'])(
    'renders definitions, runs a first-party and its own tool, answers a permission ask and aborts a call',
    async () => {
      const workspace = dirs.make();
      write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: agent\n');
      write(
        path.join(workspace, 'personalities/agent.yaml'),
        'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, lookup_weather]\n',
      );
      write(path.join(workspace, 'notes.txt'), 'remember the milk\n');
      const quiver = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} --trust-project`;
      const run = await runPython([
        path.join(REPO, 'examples/python-agent/agent.py'),
        '--workspace',
        workspace,
        '--quiver',
        quiver,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout);
      expect(summary.renderedTools).toEqual(
        expect.arrayContaining(['read_file', 'lookup_weather', 'book_table']),
      );
      expect(summary.externalToolsRun).toEqual(['lookup_weather', 'book_table', 'long_job']);
      expect(summary.permissionAsked).toEqual(['book_table']);
      expect(summary.abortResult).toMatchObject({ ok: false, code: 'aborted' });
      expect(summary.cancelRequestsSeen).toBe(1);
      expect(summary.eventTypes).toEqual(
        expect.arrayContaining(['tool.execution_start', 'tool.execution_complete', 'permission.requested']),
      );
    },
    60_000,
  );
});
