import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describeWithSystemTools, findSystemTool } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';
import { letters, trustOnTerminal } from './trust-terminal.js';

const dirs = tempDirs('quiver-server-code-');
afterEach(dirs.cleanup);

/**
 * A stdio MCP server script in the workspace, in plain JSON-RPC: `greet` answers what
 * `./answers.mjs` says, or `./local-overrides.mjs` when that optional module exists. Each start
 * appends the process id to `$STARTS`.
 */
const SERVER = `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { greeting } from './answers.mjs';
const overrides = await import('./local-overrides.mjs').catch(() => ({}));
appendFileSync(process.env.STARTS, process.pid + '\\n');
const say = overrides.greeting ?? greeting;
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return;
  if (request.method === 'initialize')
    return send({ id: request.id, result: { protocolVersion: request.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: 'local', version: '1.0.0' } } });
  if (request.method === 'tools/list')
    return send({ id: request.id, result: { tools: [{ name: 'greet', description: 'Greets.',
      inputSchema: { type: 'object', properties: {} } }] } });
  if (request.method === 'tools/call')
    return send({ id: request.id, result: { content: [{ type: 'text', text: say() }] } });
  send({ id: request.id, result: {} });
});
`;

function project() {
  const workspace = dirs.make();
  const starts = path.join(dirs.make(), 'starts');
  const env = { XDG_DATA_HOME: dirs.make() };
  write(path.join(workspace, 'tools/server.mjs'), SERVER);
  write(
    path.join(workspace, 'tools/answers.mjs'),
    "export const greeting = () => 'hello from the trusted server';\n",
  );
  write(
    path.join(workspace, 'quiver.yaml'),
    `mcpServers:\n  local:\n    command: ${JSON.stringify(process.execPath)}\n    args: [tools/server.mjs]\n    env: { STARTS: ${JSON.stringify(starts)} }\n    connectTimeoutMs: 5000\n`,
  );
  write(
    path.join(workspace, 'personalities/default.yaml'),
    'plugins: [mcp-bridge]\nmcpServers:\n  local: true\npermissions:\n  allow: [mcp__local]\n',
  );
  const startCount = () => (existsSync(starts) ? readFileSync(starts, 'utf8').trim().split('\n').length : 0);
  return { workspace, env, starts, startCount };
}

function greet(workspace: string, env: NodeJS.ProcessEnv, global: string[] = []) {
  return quiver([...global, 'call', 'mcp__local__greet'], { cwd: workspace, env });
}

describeWithSystemTools(['script'])('a trusted stdio MCP server script and what it imports', () => {
  it('starts while unchanged, and refuses an edited imported module at launch, naming the file', async () => {
    const { workspace, env, startCount } = project();
    const shown = await trustOnTerminal(workspace, env);
    expect(shown).toContain(letters(`server local: ${process.execPath}`));
    const trusted = await greet(workspace, env);
    expect(trusted.stdout).toContain('hello from the trusted server');
    expect(startCount()).toBe(1);

    const imported = path.join(workspace, 'tools/answers.mjs');
    appendFileSync(imported, "export const planted = 'x';\n");
    const refused = await greet(workspace, env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`${imported} changed since the project was trusted`);
    expect(refused.stderr).toContain('`quiver trust`');
    expect(startCount()).toBe(1);

    expect(letters(await trustOnTerminal(workspace, env))).toContain(letters(`trusted ${workspace}`));
    expect((await greet(workspace, env)).stdout).toContain('hello from the trusted server');
  });

  it('refuses a module planted where the script looks for an optional import', async () => {
    const { workspace, env, startCount } = project();
    await trustOnTerminal(workspace, env);
    expect((await greet(workspace, env)).stdout).toContain('hello from the trusted server');

    const planted = path.join(workspace, 'tools/local-overrides.mjs');
    write(planted, "export const greeting = () => 'planted';\n");
    const refused = await greet(workspace, env);
    expect(refused.stdout).not.toContain('planted');
    expect(refused.stderr).toContain(`${planted} appeared since the project was trusted`);
    expect(startCount()).toBe(1);
  });
});

it('pins the server at launch with --trust-project and refuses to restart it after an edit', async () => {
  const { workspace, env, starts, startCount } = project();
  const served = await connectStdio(workspace, { env: env as Record<string, string> });
  try {
    const first = await served.client.callTool({ name: 'mcp__local__greet', arguments: {} });
    expect(JSON.stringify(first.content)).toContain('hello from the trusted server');
    expect(startCount()).toBe(1);

    const imported = path.join(workspace, 'tools/answers.mjs');
    write(imported, "export const greeting = () => 'edited while Quiver ran';\n");
    process.kill(Number(readFileSync(starts, 'utf8').trim()), 'SIGKILL');

    let answer = '';
    for (let attempt = 0; attempt < 60 && !answer.includes(imported); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const result = await served.client.callTool({ name: 'mcp__local__greet', arguments: {} });
      answer = JSON.stringify(result.content);
      expect(answer).not.toContain('edited while Quiver ran');
    }
    expect(answer).toContain(`${imported} changed since this process pinned it at launch (--trust-project)`);
    expect(startCount()).toBe(1);
  } finally {
    await served.client.close();
  }
});

/** The same server in Python: `greet` answers what `helper.py`, beside the script, says. */
const PYTHON_SERVER = `import json, sys
import helper
for line in sys.stdin:
    request = json.loads(line)
    if 'id' not in request:
        continue
    method = request['method']
    if method == 'initialize':
        result = {'protocolVersion': request['params']['protocolVersion'], 'capabilities': {'tools': {}},
                  'serverInfo': {'name': 'py', 'version': '1.0.0'}}
    elif method == 'tools/list':
        result = {'tools': [{'name': 'greet', 'description': 'Greets.', 'inputSchema': {'type': 'object', 'properties': {}}}]}
    elif method == 'tools/call':
        result = {'content': [{'type': 'text', 'text': helper.greeting()}]}
    else:
        result = {}
    sys.stdout.write(json.dumps({'jsonrpc': '2.0', 'id': request['id'], 'result': result}) + '\\n')
    sys.stdout.flush()
`;

describeWithSystemTools(['script', 'python3'])(
  'a trusted Python MCP server script and the modules beside it',
  () => {
    it('refuses an edited module it imports and a planted module that shadows the standard library', async () => {
      const workspace = dirs.make();
      const env = { XDG_DATA_HOME: dirs.make() };
      write(path.join(workspace, 'tools/server.py'), PYTHON_SERVER);
      const helper = path.join(workspace, 'tools/helper.py');
      write(helper, "def greeting():\n    return 'hello from the trusted helper'\n");
      write(
        path.join(workspace, 'quiver.yaml'),
        `mcpServers:\n  py:\n    command: ${JSON.stringify(findSystemTool('python3'))}\n    args: [tools/server.py]\n    connectTimeoutMs: 5000\n`,
      );
      write(
        path.join(workspace, 'personalities/default.yaml'),
        'plugins: [mcp-bridge]\nmcpServers:\n  py: true\npermissions:\n  allow: [mcp__py]\n',
      );
      const call = () => quiver(['call', 'mcp__py__greet'], { cwd: workspace, env });
      await trustOnTerminal(workspace, env);
      expect((await call()).stdout).toContain('hello from the trusted helper');

      // `import json` finds tools/json.py before the standard library: a file there is new code.
      const shadow = path.join(workspace, 'tools/json.py');
      write(shadow, 'raise SystemExit(3)\n');
      const planted = await call();
      expect(planted.code).not.toBe(0);
      expect(planted.stderr).toContain(`${shadow} appeared since the project was trusted`);
      rmSync(shadow);

      write(helper, "def greeting():\n    return 'edited'\n");
      const edited = await call();
      expect(edited.stdout).not.toContain('edited');
      expect(edited.stderr).toContain(`${helper} changed since the project was trusted`);
    });
  },
);
