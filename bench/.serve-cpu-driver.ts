// temporary: CPU time per call of the server processes (serve vs raw echo), all threads
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const bins = (process.env.BINS ?? '/work/main/apps/cli/dist/bin.js').split(',');
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
function ws() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qcpu-'));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: bench\n');
  writeFileSync(path.join(dir, 'personalities/bench.yaml'), 'id: bench\nplugins: [tools-terminal]\npermissions:\n  allow: [terminal_list]\n');
  return { dir, xdg: mkdtempSync(path.join(os.tmpdir(), 'qcpu-xdg-')) };
}
const kids = (pid: number): number[] => { try { return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number).flatMap((k) => [k, ...kids(k)]); } catch { return []; } };
const cpu1 = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const cpu = (pid: number) => [pid, ...kids(pid)].reduce((a, p) => a + cpu1(p), 0);
const sides: { name: string; t: StdioClientTransport; c: Client; call: () => Promise<unknown> }[] = [];
{ const t = new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }); const c = new Client({ name: 'p', version: '1' }); await c.connect(t); sides.push({ name: 'raw', t, c, call: () => c.callTool({ name: 'echo', arguments: { message: 'bench' } }) }); }
for (const bin of bins) { const w = ws(); const t = new StdioClientTransport({ command: process.execPath, args: [bin, '--trust-project', 'serve'], cwd: w.dir, env: { ...env, XDG_DATA_HOME: w.xdg }, stderr: 'inherit' }); const c = new Client({ name: 'p', version: '1' }); await c.connect(t, { timeout: 120000 }); sides.push({ name: bin, t, c, call: () => c.callTool({ name: 'terminal_list', arguments: {} }) }); }
const N = Number(process.env.N ?? 3000);
for (const s of sides) for (let i = 0; i < 300; i++) await s.call();
const res: Record<string, number[]> = {};
for (let round = 0; round < 3; round++) for (const s of sides) {
  const pid = s.t.pid!; const c0 = cpu(pid);
  for (let i = 0; i < N; i++) await s.call();
  await new Promise((r) => setTimeout(r, 300));
  (res[s.name] ??= []).push(((cpu(pid) - c0) / N) * 1000);
}
for (const [k, v] of Object.entries(res)) console.log('µs CPU per call', v.map((x) => x.toFixed(0)).join(' '), k);
for (const s of sides) await s.c.close();
