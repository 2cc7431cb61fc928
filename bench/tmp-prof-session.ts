import { createRequire } from 'node:module';
import path from 'node:path';
import { sessionEchoCall } from './mcp-session-side.js';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const N = Number(process.env.N ?? 5000);
const C = Number(process.env.C ?? 1);
const side = await sessionEchoCall(process.execPath, [everything, 'stdio']);
for (let i = 0; i < 500; i++) await side.call();
const t: number[] = [];
const started = performance.now();
for (let i = 0; i < N; i++) { const s = performance.now(); await Promise.all(Array.from({ length: C }, side.call)); t.push(performance.now() - s); }
const total = performance.now() - started;
t.sort((a, b) => a - b);
console.log(`p50 ${t[Math.floor(t.length / 2)]?.toFixed(3)} ms, throughput ${(N * C / total * 1000).toFixed(0)} calls/s`);
await side.close();
