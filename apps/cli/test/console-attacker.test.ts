import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, quiver, tempDirs, write } from './helpers.js';
import { connectStdio, textOf } from './serve-fixtures.js';

interface Running {
  client: Client;
  workspace: string;
  env: Record<string, string>;
  record: { pid: number; url: string; token: string; file: string };
}

const dirs = tempDirs('quiver-console-attack-');
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  dirs.cleanup();
});

/**
 * A `quiver serve` whose console is running, as an MCP client without elicitation sees it (no
 * page open: every ask is denied), and the console's record as the person's `quiver console` reads it.
 */
async function serveWithConsole(personality: string | undefined): Promise<Running> {
  const workspace = dirs.make();
  const runtime = dirs.make();
  const env = { XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: dirs.make() };
  if (personality !== undefined) {
    write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: attacker\n');
    write(path.join(workspace, 'personalities/attacker.yaml'), personality);
  }
  const { client } = await connectStdio(workspace, { env, trustProject: personality !== undefined });
  clients.push(client);
  const listed = await quiver(['console', '--json'], { cwd: workspace, env });
  const [entry] = JSON.parse(listed.stdout) as Array<{ pid: number; url: string }>;
  const url = new URL(entry?.url as string);
  const file = path.join(runtime, 'quiver', 'console', `${entry?.pid}.json`);
  expect(JSON.parse(readFileSync(file, 'utf8')).token).toBe(url.hash.replace('#token=', ''));
  return {
    client,
    workspace,
    env,
    record: {
      pid: entry?.pid as number,
      url: `${url.origin}/`,
      token: url.hash.replace('#token=', ''),
      file,
    },
  };
}

/** Everything a model can try with the terminal tool to learn the console's secret or answer an ask. */
function attacks({ record }: Running): string[] {
  const directory = path.dirname(record.file);
  return [
    `cat ${record.file}`,
    `cat ${directory}/*.json`,
    `cd ${directory} && cat *.json`,
    `git diff --no-index /dev/null ${record.file}`,
    `git diff --no-index ${record.file} /dev/null`,
    `grep -r token ${directory}`,
    `head -c 400 < ${record.file}`,
    `tr -d x < /proc/${record.pid}/environ`,
    `cat /proc/${record.pid}/environ`,
    `cat /proc/${record.pid}/cmdline`,
    `cat /proc/${process.pid}/environ`,
    `curl -s ${record.url}api/ping`,
    `curl -s ${record.url}api/events`,
    `curl -s -X POST -d '{"decision":"once"}' ${record.url}api/asks/x`,
    `node ${BIN} console --json`,
    `env -u QUIVER_TERMINAL_RUN node ${BIN} console --json`,
  ];
}

async function attack(running: Running): Promise<string[]> {
  const outputs: string[] = [];
  for (const command of attacks(running)) {
    const result = await running.client.callTool({ name: 'terminal', arguments: { command } });
    const text = textOf(result);
    // Whatever happened to the command, the secret is not in what the model got back.
    expect(text, command).not.toContain(running.record.token);
    outputs.push(`${command} => ${text.slice(0, 300)}`);
  }
  const read = await running.client.callTool({ name: 'read_file', arguments: { path: running.record.file } });
  expect(textOf(read)).not.toContain(running.record.token);
  expect(read.isError).toBe(true);
  return outputs;
}

describe("the console's secret, attacked with the model's tools", () => {
  it('stays out of reach with the sandbox off and the terminal allowed outright', async () => {
    const running = await serveWithConsole(
      "extends: default\nsandbox: off\npermissions:\n  allow: { add: [terminal, read_file, grep, 'terminal(curl:*)', 'terminal(cat:*)', 'terminal(node:*)', 'terminal(env:*)', 'terminal(env -u QUIVER_TERMINAL_RUN node run-quiver.mjs console --json)', 'terminal(env -u QUIVER_TERMINAL_RUN node run-quiver.mjs permissions add allow write_file --scope personality)'] }\n",
    );
    const outputs = await attack(running);
    const said = (command: string) => outputs.find((line) => line.startsWith(`${command} =>`)) ?? '';
    expect(said(`cat ${running.record.file}`)).toContain('console keeps its address and secret here');
    expect(said(`git diff --no-index /dev/null ${running.record.file}`)).toMatch(/denied|protected/);
    // The server refuses the request without its secret (curl ran: the sandbox is off).
    expect(said(`curl -s ${running.record.url}api/ping`)).toContain('the console needs its secret');
    expect(said(`node ${BIN} console --json`)).toMatch(/not permitted|denied|terminal tool/);
    // Neither the server's environment and command line nor a tool command's environment holds it.
    for (const file of ['environ', 'cmdline'])
      expect(readFileSync(`/proc/${running.record.pid}/${file}`, 'utf8')).not.toContain(running.record.token);
    const printed = await running.client.callTool({ name: 'terminal', arguments: { command: 'env' } });
    expect(textOf(printed)).toContain('PATH=');
    expect(textOf(printed)).not.toContain(running.record.token);
    // `quiver console` started by a tool command (a person allowed it), its marker cleared, still
    // refuses: it runs below the server.
    write(path.join(running.workspace, 'run-quiver.mjs'), `await import(${JSON.stringify(BIN)});\n`);
    const escaped = await running.client.callTool({
      name: 'terminal',
      arguments: { command: 'env -u QUIVER_TERMINAL_RUN node run-quiver.mjs console --json' },
    });
    expect(textOf(escaped)).not.toContain(running.record.token);
    expect(textOf(escaped)).toContain('runs inside a Quiver server with a console');
    // So does any command that widens what Quiver may do: the same ancestry, not only the marker.
    const personalityFile = path.join(running.workspace, 'personalities/attacker.yaml');
    const before = readFileSync(personalityFile, 'utf8');
    const widened = await running.client.callTool({
      name: 'terminal',
      arguments: {
        command:
          'env -u QUIVER_TERMINAL_RUN node run-quiver.mjs permissions add allow write_file --scope personality',
      },
    });
    expect(textOf(widened)).toContain('person_only_command');
    expect(readFileSync(personalityFile, 'utf8')).toBe(before);
  });

  itWithSystemTools(['bwrap'])(
    'stays out of reach under the embedded default with the sandbox on',
    async () => {
      const running = await serveWithConsole(undefined);
      await attack(running);
    },
  );

  it('refuses `quiver console` run by a command of the terminal tool, printing nothing', async () => {
    const workspace = dirs.make();
    const run = await quiver(['console'], {
      cwd: workspace,
      env: { XDG_RUNTIME_DIR: dirs.make(), QUIVER_TERMINAL_RUN: '1' },
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("run by a command of Quiver's terminal tool");
  });

  itWithSystemTools(['bwrap'])(
    'is hidden from a command a person approved, inside the sandbox, even when it is under the workspace',
    async () => {
      const workspace = dirs.make();
      const env = { XDG_RUNTIME_DIR: path.join(workspace, '.run'), XDG_DATA_HOME: dirs.make() };
      write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: boxed\n');
      write(path.join(workspace, 'personalities/boxed.yaml'), 'extends: default\nsandbox: required\n');
      // What an approved program could do that no rule sees: read every file below the directory.
      write(
        path.join(workspace, 'read.mjs'),
        "import { readdirSync, readFileSync } from 'node:fs';\nconst dir = '.run/quiver/console';\ntry { for (const name of readdirSync(dir)) console.log(name, readFileSync(dir + '/' + name, 'utf8')); console.log('listed', readdirSync(dir).length); } catch (error) { console.log('unreadable', error.code); }\n",
      );
      const { client } = await connectStdio(workspace, { env, trustProject: true });
      clients.push(client);
      const listed = await quiver(['console', '--json'], { cwd: workspace, env });
      const [entry] = JSON.parse(listed.stdout) as Array<{ url: string; pid: number }>;
      const url = new URL(entry?.url as string);
      const token = url.hash.replace('#token=', '');
      expect(readdirSync(path.join(workspace, '.run/quiver/console'))).toEqual([`${entry?.pid}.json`]);
      // The person answers through the console, as they would.
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const stop = new AbortController();
      const events = await fetch(new URL('/api/events', url), { headers, signal: stop.signal });
      const pending = client.callTool({ name: 'terminal', arguments: { command: 'node read.mjs' } });
      let seen = '';
      for await (const chunk of events.body as unknown as AsyncIterable<Uint8Array>) {
        seen += Buffer.from(chunk).toString('utf8');
        const id = /"type":"ask","ask":\{"id":"([\w-]+)"/.exec(seen)?.[1];
        if (id === undefined) continue;
        const answered = await fetch(new URL(`/api/asks/${id}`, url), {
          method: 'POST',
          headers,
          body: JSON.stringify({ decision: 'once' }),
        });
        expect(answered.status).toBe(200);
        break;
      }
      stop.abort();
      const text = textOf(await pending);
      expect(text).not.toContain(token);
      expect(text).toContain('listed 0');
    },
    60_000,
  );
});
