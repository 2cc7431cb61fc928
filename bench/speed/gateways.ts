import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect as connectTcp } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { environment, freePort, sleep } from './processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const QUIVER_BIN = process.env.QUIVER_BIN ?? path.resolve(here, '../../apps/cli/dist/bin.js');
export const EVERYTHING = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
export const BYTE_RELAY = path.join(here, 'byte-relay.mjs');
export const PARSING_RELAY = path.join(here, 'parsing-relay.mjs');
export const MINIMAL_SERVER = path.join(here, 'minimal-stdio-server.mjs');
const MCP_PROXY = path.join(
  path.dirname(require.resolve('mcp-proxy/package.json')),
  'dist/bin/mcp-proxy.mjs',
);
const SUPERGATEWAY = path.join(path.dirname(require.resolve('supergateway/package.json')), 'dist/index.js');

export function peerVersions(): { mcpProxy: string; supergateway: string } {
  return {
    mcpProxy: (require('mcp-proxy/package.json') as { version: string }).version,
    supergateway: (require('supergateway/package.json') as { version: string }).version,
  };
}

export interface Workspace {
  dir: string;
  xdg: string;
}

/** A workspace whose personality serves server-everything's `echo` through the bridge, and nothing else. */
export function gatewayWorkspace(root: string): Workspace {
  const dir = mkdtempSync(path.join(root, 'gateway-'));
  const xdg = mkdtempSync(path.join(root, 'gateway-xdg-'));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(
    path.join(dir, 'quiver.yaml'),
    `defaultPersonality: bench\nmcpServers:\n  everything: ${JSON.stringify({ command: process.execPath, args: [EVERYTHING, 'stdio'] })}\n`,
  );
  writeFileSync(
    path.join(dir, 'personalities/bench.yaml'),
    'id: bench\nplugins: [mcp-bridge]\nmcpServers:\n  everything: { includeTools: [echo] }\npermissions:\n  allow: [mcp__everything__echo]\n',
  );
  return { dir, xdg };
}

export type Call = () => Promise<void>;

export interface Connected {
  client: Client;
  /** The tool's name on this side. */
  tool: string;
  call: Call;
  /** The process the client started or connected to (for memory). */
  pid: number | undefined;
  close: () => Promise<void>;
}

function caller(client: Client, tool: string): Call {
  return async () => {
    const result = await client.callTool({ name: tool, arguments: { message: 'bench' } });
    if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
  };
}

/** Lists tools until `tool` is among them (gateways may start their servers after answering). */
export async function untilListed(client: Client, tool: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if ((await client.listTools()).tools.some((listed) => listed.name === tool)) return;
    await sleep(20);
  }
  throw new Error(`${tool} was never listed`);
}

export type StdioSide = 'raw' | 'relay' | 'parsing' | 'serve' | 'minimal';

/** An SDK client over stdio to one side; `listedMs` is spawn → the answer of the first tools/list naming the tool. */
export async function connectStdio(
  side: StdioSide,
  workspace: Workspace,
): Promise<Connected & { listedMs: number }> {
  const commands: Record<
    StdioSide,
    { args: string[]; tool: string; cwd?: string; env?: Record<string, string> }
  > = {
    raw: { args: [EVERYTHING, 'stdio'], tool: 'echo' },
    minimal: { args: [MINIMAL_SERVER], tool: 'echo' },
    relay: { args: [BYTE_RELAY, process.execPath, EVERYTHING, 'stdio'], tool: 'echo' },
    parsing: { args: [PARSING_RELAY, process.execPath, EVERYTHING, 'stdio'], tool: 'echo' },
    serve: {
      args: [QUIVER_BIN, '--trust-project', 'serve'],
      tool: 'mcp__everything__echo',
      cwd: workspace.dir,
      env: environment({ XDG_DATA_HOME: workspace.xdg }),
    },
  };
  const { args, tool, cwd, env } = commands[side];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'ignore',
    ...(cwd ? { cwd } : {}),
    ...(env ? { env } : {}),
  });
  const client = new Client({ name: 'speed-bench', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport, { timeout: 120_000 });
  await untilListed(client, tool);
  const listedMs = performance.now() - started;
  return {
    client,
    tool,
    call: caller(client, tool),
    pid: transport.pid ?? undefined,
    listedMs,
    close: () => client.close(),
  };
}

export type HttpSide = 'serve' | 'mcp-proxy' | 'supergateway';

export interface HttpGateway {
  side: HttpSide;
  url: string;
  tool: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

async function untilAccepting(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`the gateway exited with ${child.exitCode}: ${stderr().slice(-1_000)}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(10);
  }
  throw new Error(`nothing listened on port ${port}`);
}

/** Starts one HTTP gateway in front of server-everything and resolves once it accepts connections. */
export async function startHttpGateway(side: HttpSide, workspace: Workspace): Promise<HttpGateway> {
  const port = await freePort();
  const everything = [process.execPath, EVERYTHING, 'stdio'];
  const commands: Record<HttpSide, { args: string[]; cwd?: string; env?: Record<string, string> }> = {
    serve: {
      args: [QUIVER_BIN, '--trust-project', 'serve', '--http', `127.0.0.1:${port}`],
      cwd: workspace.dir,
      env: environment({ XDG_DATA_HOME: workspace.xdg }),
    },
    'mcp-proxy': {
      args: [
        MCP_PROXY,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--server',
        'stream',
        '--',
        ...everything,
      ],
    },
    supergateway: {
      args: [
        SUPERGATEWAY,
        '--stdio',
        everything.map((part) => JSON.stringify(part)).join(' '),
        '--outputTransport',
        'streamableHttp',
        '--stateful',
        '--port',
        String(port),
        '--logLevel',
        'none',
      ],
    },
  };
  const { args, cwd, env } = commands[side];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(cwd ? { cwd } : {}),
    env: env ?? environment(),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  await untilAccepting(port, child, () => stderr);
  return {
    side,
    url: `http://127.0.0.1:${port}/mcp`,
    tool: side === 'serve' ? 'mcp__everything__echo' : 'echo',
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

export async function connectHttp(gateway: HttpGateway): Promise<Connected> {
  const client = new Client({ name: 'speed-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)), { timeout: 120_000 });
  await untilListed(client, gateway.tool);
  return {
    client,
    tool: gateway.tool,
    call: caller(client, gateway.tool),
    pid: gateway.process.pid,
    close: () => client.close(),
  };
}
