import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sessionEchoCall } from './mcp-session-side.js';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const client = new Client({ name: 'raw', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const session = await sessionEchoCall(process.execPath, [everything, 'stdio']);
const raw = () => client.callTool({ name: 'echo', arguments: { message: 'bench' } });
const N = Number(process.env.N ?? 2000);
const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (let i = 0; i < 300; i++) { await raw(); await session.call(); }
const r: number[] = [], s: number[] = [];
const which = process.env.ONLY;
for (let i = 0; i < N; i++) {
  if (which !== 'session') { const t = performance.now(); await raw(); r.push(performance.now() - t); }
  if (which !== 'raw') { const t2 = performance.now(); await session.call(); s.push(performance.now() - t2); }
}
console.log('raw p50', which === 'session' ? '-' : med(r).toFixed(3), 'session p50', which === 'raw' ? '-' : med(s).toFixed(3));
await session.close(); await client.close();
