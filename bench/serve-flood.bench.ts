import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { median } from './measure.js';

/**
 * A hostile MCP server floods one call with 100,000 notifications (half progress, half log
 * messages). Baseline: an SDK client connected to the server directly, which receives every
 * one. Measured: the same client in front of `quiver serve` in front of the server, which
 * coalesces progress and rate-limits log messages. Reports the wall time of the call on each
 * side, their ratio, the server's own time to send, and what reached the client.
 */

const PROGRESS = 50_000;
const LOGS = 50_000;
const ROUNDS = 3;
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(here);
const hostileServer = path.join(repo, 'extensions/mcp-bridge/test/fixtures/hostile-server.mjs');
const quiverBin = path.join(repo, 'apps/cli/dist/bin.js');

interface FloodOutcome {
  wallMs: number;
  serverMs: number;
  progress: number;
  logs: number;
  droppedReported: number;
}

function environment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

async function flood(transport: StdioClientTransport, tool: string): Promise<FloodOutcome> {
  const client = new Client({ name: 'serve-flood-bench', version: '1.0.0' });
  await client.connect(transport);
  let progress = 0;
  let logs = 0;
  let droppedReported = 0;
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    if ('method' in message && message.method === 'notifications/progress') progress += 1;
    if ('method' in message && message.method === 'notifications/message') {
      const dropped = /^Quiver dropped (\d+) log messages/.exec(String(message.params?.data ?? ''));
      if (dropped) droppedReported += Number(dropped[1]);
      else logs += 1;
    }
    deliver?.call(transport, message);
  };
  try {
    await client.setLoggingLevel('debug');
    // Serve starts bridged servers on demand: wait until the tool is listed, as a client would.
    while (!(await client.listTools()).tools.some((listed) => listed.name === tool))
      await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const result = await client.callTool(
      { name: tool, arguments: { count: PROGRESS, logs: LOGS } },
      { onprogress: () => {}, timeout: 600_000 },
    );
    const wallMs = performance.now() - started;
    const [first] = (result.content ?? []) as Array<{ type: string; text?: string }>;
    const serverMs = Number(/in (\d+) ms/.exec(first?.text ?? '')?.[1] ?? Number.NaN);
    // The count of dropped log messages follows at the end of the limit's one-second window.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    return { wallMs, serverMs, progress, logs, droppedReported };
  } finally {
    await client.close();
  }
}

function direct(state: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [hostileServer],
    env: environment({ HOSTILE_STATE_DIR: state }),
    stderr: 'ignore',
  });
}

function throughServe(workspace: string, xdg: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [quiverBin, '--trust-project', 'serve'],
    cwd: workspace,
    env: environment({ XDG_DATA_HOME: xdg }),
    stderr: 'ignore',
  });
}

function hostileWorkspace(root: string): { workspace: string; xdg: string; state: string } {
  const workspace = path.join(root, 'workspace');
  const state = path.join(root, 'state');
  const xdg = path.join(root, 'xdg');
  for (const dir of [workspace, state, xdg, path.join(workspace, 'personalities')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(workspace, 'quiver.yaml'),
    [
      'defaultPersonality: dev',
      'mcpServers:',
      '  hostile:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(hostileServer)}]`,
      `    env: { HOSTILE_STATE_DIR: ${JSON.stringify(state)} }`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(workspace, 'personalities/dev.yaml'),
    'plugins: [mcp-bridge]\nmcpServers:\n  hostile: true\npermissions:\n  allow: [mcp__hostile__*]\n',
  );
  return { workspace, xdg, state };
}

export async function run(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'quiver-serve-flood-bench-'));
  try {
    const { workspace, xdg, state } = hostileWorkspace(root);
    const directRuns: FloodOutcome[] = [];
    const serveRuns: FloodOutcome[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      directRuns.push(await flood(direct(state), 'flood'));
      serveRuns.push(await flood(throughServe(workspace, xdg), 'mcp__hostile__flood'));
    }
    const row = (label: string, runs: FloodOutcome[]) => ({
      path: label,
      'call ms (median)': Math.round(median(runs.map((r) => r.wallMs))),
      'server send ms (median)': Math.round(median(runs.map((r) => r.serverMs))),
      'progress notices at client (max)': Math.max(...runs.map((r) => r.progress)),
      'log messages at client (max)': Math.max(...runs.map((r) => r.logs)),
      'log messages reported dropped (min)': Math.min(...runs.map((r) => r.droppedReported)),
    });
    console.log(
      `${PROGRESS + LOGS} notifications per call (${PROGRESS} progress, ${LOGS} log), ${ROUNDS} rounds`,
    );
    console.table([
      row('client → server directly', directRuns),
      row('client → quiver serve → server', serveRuns),
    ]);
    const ratios = serveRuns.map((run, index) => run.wallMs / (directRuns[index]?.wallMs ?? Number.NaN));
    const serverRatios = serveRuns.map((run) => run.wallMs / run.serverMs);
    console.log(
      `call time through serve / directly: ${median(ratios).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
    );
    console.log(
      `call time through serve / the server's own send time: ${median(serverRatios).toFixed(3)} (rounds: ${serverRatios.map((r) => r.toFixed(3)).join(', ')})`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
