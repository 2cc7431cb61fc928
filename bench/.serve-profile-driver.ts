// temporary: drives N calls through quiver serve (profiled by the child's --cpu-prof)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const bin = process.env.QUIVER_BIN ?? '/work/main/apps/cli/dist/bin.js';
const dir = mkdtempSync(path.join(os.tmpdir(), 'qprof-'));
mkdirSync(path.join(dir, 'personalities'));
writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: bench\n');
writeFileSync(path.join(dir, 'personalities/bench.yaml'), 'id: bench\nplugins: [tools-terminal]\npermissions:\n  allow: [terminal_list]\n');
const xdg = mkdtempSync(path.join(os.tmpdir(), 'qprof-xdg-'));
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
const client = new Client({ name: 'p', version: '1' });
const prof = process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/serveprof'] : [];
const everything = '/work/main/bench/node_modules/@modelcontextprotocol/server-everything/dist/index.js';
await client.connect(new StdioClientTransport({ command: process.execPath, args: process.env.RAW ? [...prof, everything, 'stdio'] : [...prof, bin, '--trust-project', 'serve'], cwd: dir, env: { ...env, XDG_DATA_HOME: xdg, NO_COLOR: '1' }, stderr: 'inherit' }), { timeout: 120000 });
const n = Number(process.env.N ?? 4000);
const t0 = performance.now();
for (let i = 0; i < n; i++) { const r = process.env.RAW ? await client.callTool({ name: 'echo', arguments: { message: 'bench' } }) : await client.callTool({ name: 'terminal_list', arguments: {} }); if (r.isError) throw new Error(JSON.stringify(r)); }
console.log('per call ms', ((performance.now() - t0) / n).toFixed(3));
await client.close();
