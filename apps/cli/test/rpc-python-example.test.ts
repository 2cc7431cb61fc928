import { spawn } from 'node:child_process';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect } from 'vitest';
import { BIN, REPO, tempDirs, write } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

const dirs = tempDirs('quiver-python-agent-');
afterEach(() => dirs.cleanup());

function runPython(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, { env: serveEnv() });
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
