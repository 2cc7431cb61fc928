import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sessionEchoCall } from './mcp-session-side.js';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const client = new Client({ name: 'raw', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const raw = () => client.callTool({ name: 'echo', arguments: { message: 'bench' } });
const side = await sessionEchoCall(process.execPath, [everything, 'stdio']);
const N = Number(process.env.N ?? 3000);
for (let i = 0; i < 500; i++) { await raw(); await side.call(); }
for (let round = 0; round < 3; round++) for (const [name, fn] of [['raw', raw], ['session', side.call]] as const) {
  await new Promise((r) => setTimeout(r, 300));
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const t = performance.now() - t0; await new Promise((r) => setTimeout(r, 300)); const c = process.cpuUsage(c0);
  console.log(`${name.padEnd(8)} wall ${(t / N * 1000).toFixed(0)} µs/call, cpu (all threads, incl. 300ms settle) ${((c.user + c.system) / N).toFixed(0)} µs/call, user ${(c.user / N).toFixed(0)} sys ${(c.system / N).toFixed(0)}`);
}
await side.close(); await client.close();
