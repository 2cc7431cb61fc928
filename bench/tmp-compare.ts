import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const trees = { now: '/work/main/bench/mcp-session-side.ts', before: '/tmp/quiver-before/main/bench/mcp-session-side.ts' };
const client = new Client({ name: 'raw', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const sides: Record<string, () => Promise<unknown>> = { raw: () => client.callTool({ name: 'echo', arguments: { message: 'bench' } }) };
const closers: Array<() => Promise<void>> = [];
for (const [name, file] of Object.entries(trees)) {
  const { sessionEchoCall } = (await import(file)) as typeof import('./mcp-session-side.js');
  const side = await sessionEchoCall(process.execPath, [everything, 'stdio']);
  sides[name] = side.call; closers.push(side.close);
}
const C = Number(process.env.C ?? 1);
const N = Number(process.env.N ?? 2000);
const names = Object.keys(sides);
const batch = (fn: () => Promise<unknown>) => Promise.all(Array.from({ length: C }, fn));
for (let i = 0; i < 300; i++) for (const n of names) await batch(sides[n]!);
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < N; i++) {
  const order = names.map((_, k) => names[(k + i) % names.length]!);
  for (const n of order) { const s = performance.now(); await batch(sides[n]!); samples[n]!.push(performance.now() - s); }
}
const med = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const raw = med(samples.raw!);
for (const n of names) console.log(`${n.padEnd(7)} p50 ${(med(samples[n]!) * 1000).toFixed(0)} µs  ratio ${(med(samples[n]!) / raw).toFixed(3)}`);
for (const c of closers) await c();
await client.close();
