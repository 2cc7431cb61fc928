import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { BIN, quiver, tempDirs, write } from './helpers.js';
import { connectStdio, serveEnv, textOf } from './serve-fixtures.js';

const SECRET = `held-by-the-server-${Math.random().toString(36).slice(2)}`;
const GRANTED = `granted-to-terminal-${Math.random().toString(36).slice(2)}`;

/**
 * Run by the terminal tool: prints the granted secret, every process this command can see whose
 * environment names the ungranted one (only its own control should), and the environment of
 * each ancestor up to init.
 */
const PROBE = `echo "granted=$QUIVER_TEST_GRANTED_TOKEN"
# A control: the scan below must find this one process, so it is known to see environments.
QUIVER_TEST_SECRET=control sleep 30 &
sleep 0.2
echo "holders=$(grep -las 'QUIVER_TEST_SECRET=' /proc/[0-9]*/environ | tr '\\n' ' ')"
p=$PPID
while [ "$p" -gt 1 ]; do
  echo "ancestor $p $(tr '\\0' ' ' < /proc/$p/cmdline)"
  tr '\\0' '\\n' < /proc/$p/environ
  p=$(cut -d' ' -f4 /proc/$p/stat)
done
`;

const dirs = tempDirs('quiver-secrets-');
afterEach(dirs.cleanup);

function workspace(sandbox: 'off' | 'required'): string {
  const dir = dirs.make();
  write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: probe\n');
  write(
    path.join(dir, 'personalities/probe.yaml'),
    `id: probe\nplugins: [tools-terminal]\nsandbox: ${sandbox}\nsecrets:\n  terminal: [QUIVER_TEST_GRANTED_TOKEN]\npermissions:\n  allow: ['terminal(bash probe.sh)']\n`,
  );
  write(path.join(dir, 'probe.sh'), PROBE);
  return dir;
}

const secrets = { QUIVER_TEST_SECRET: SECRET, QUIVER_TEST_GRANTED_TOKEN: GRANTED };

function expectNoServerSecret(output: string, sandbox: 'off' | 'required'): void {
  expect(output).toContain(`granted=${GRANTED}`);
  expect(output).toMatch(/^holders=\/proc\/\d+\/environ\s*$/m);
  expect(output).not.toContain(SECRET);
  // Without the sandbox the walk passes through the Quiver process, which runs as one process.
  const quiverAncestors = output.split('\n').filter((line) => /^ancestor \d+ .*dist\/bin\.js/.test(line));
  if (sandbox === 'off') expect(quiverAncestors.length).toBe(1);
  else expect(quiverAncestors).toEqual([]);
}

describe("secrets of the server's environment", () => {
  for (const sandbox of ['off', 'required'] as const) {
    const test = sandbox === 'off' ? it : itWithSystemTools(['bwrap']);
    test(`stay out of every /proc/<pid>/environ a command of quiver serve can read (sandbox ${sandbox})`, async () => {
      const dir = workspace(sandbox);
      const { client } = await connectStdio(dir, { env: secrets });
      try {
        const result = await client.callTool({ name: 'terminal', arguments: { command: 'bash probe.sh' } });
        expect(result.isError).toBeFalsy();
        expectNoServerSecret(textOf(result), sandbox);
      } finally {
        await client.close();
      }
    });

    test(`stay out of every /proc/<pid>/environ a command of quiver call can read (sandbox ${sandbox})`, async () => {
      const dir = workspace(sandbox);
      const run = await quiver(
        ['--trust-project', 'call', 'terminal', '--args', '{"command":"bash probe.sh"}'],
        {
          cwd: dir,
          env: { ...serveEnv(), ...secrets },
        },
      );
      expect(run.code).toBe(0);
      expectNoServerSecret(run.stdout, sandbox);
    });

    test(`stay out of every /proc/<pid>/environ a command run through quiver rpc can read (sandbox ${sandbox})`, async () => {
      const dir = workspace(sandbox);
      const child = spawn(process.execPath, [BIN, '--trust-project', 'rpc'], {
        cwd: dir,
        env: { ...serveEnv(), ...secrets },
      });
      const connection = createMessageConnection(
        new StreamMessageReader(child.stdout),
        new StreamMessageWriter(child.stdin),
      );
      connection.listen();
      try {
        await connection.sendRequest('initialize', {
          protocolVersion: '1',
          client: { name: 'secrets-test' },
          capabilities: { permissions: false },
        });
        const { sessionId } = await connection.sendRequest<{ sessionId: string }>('session.create', {});
        const { results } = await connection.sendRequest<{ results: Array<{ ok: boolean; value?: string }> }>(
          'session.execute',
          { sessionId, calls: [{ id: 'probe', name: 'terminal', args: { command: 'bash probe.sh' } }] },
        );
        expect(results[0]?.ok).toBe(true);
        expectNoServerSecret(String(results[0]?.value), sandbox);
      } finally {
        connection.dispose();
        child.kill('SIGKILL');
      }
    });
  }

  it('stay out of /proc/<pid>/environ of the one process an MCP client starts, which serves without a second one', async () => {
    const { client, transport } = await connectStdio(workspace('off'), { env: secrets });
    try {
      const server = transport.pid as number;
      const environ = readFileSync(`/proc/${server}/environ`, 'latin1');
      expect(environ).toContain('PATH=');
      expect(environ).not.toContain(SECRET);
      expect(environ).not.toContain(GRANTED);
      // The granted secret still reaches the tool: it was held in memory, not dropped.
      const result = await client.callTool({ name: 'terminal', arguments: { command: 'bash probe.sh' } });
      expect(textOf(result)).toContain(`granted=${GRANTED}`);
      const quiverChildren = readdirSync('/proc').filter((entry) => {
        try {
          return (
            /^\d+$/.test(entry) &&
            readFileSync(`/proc/${entry}/stat`, 'latin1').split(') ')[1]?.split(' ')[1] === String(server) &&
            readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('dist/bin.js')
          );
        } catch {
          return false;
        }
      });
      expect(quiverChildren).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
