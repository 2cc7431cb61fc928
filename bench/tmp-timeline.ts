import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sessionEchoCall } from './mcp-session-side.js';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
let tSend = 0, tRecv = 0;
const proto = StdioClientTransport.prototype as any;
const send = proto.send; proto.send = function (m: any) { if (m.method === 'tools/call') tSend = performance.now(); return send.call(this, m); };
const prb = proto.processReadBuffer; proto.processReadBuffer = function () { tRecv = performance.now(); return prb.call(this); };
const client = new Client({ name: 'raw', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const raw = () => client.callTool({ name: 'echo', arguments: { message: 'bench' } });
const side = await sessionEchoCall(process.execPath, [everything, 'stdio']);
const N = Number(process.env.N ?? 3000);
const data: Record<string, { pre: number[]; wire: number[]; post: number[]; all: number[] }> = {};
for (const [name, fn] of [['raw', raw], ['session', side.call]] as const) data[name] = { pre: [], wire: [], post: [], all: [] };
for (let i = 0; i < 300; i++) { await raw(); await side.call(); }
for (let i = 0; i < N; i++) for (const [name, fn] of (i % 2 ? [['raw', raw], ['session', side.call]] : [['session', side.call], ['raw', raw]]) as Array<[string, () => Promise<unknown>]>) {
  const s = performance.now(); await fn(); const e = performance.now();
  const d = data[name]!; d.pre.push(tSend - s); d.wire.push(tRecv - tSend); d.post.push(e - tRecv); d.all.push(e - s);
}
const med = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return (s[Math.floor(s.length / 2)]! * 1000).toFixed(0); };
for (const [name, d] of Object.entries(data)) console.log(`${name.padEnd(8)} pre ${med(d.pre)} µs  wire ${med(d.wire)} µs  post ${med(d.post)} µs  all ${med(d.all)} µs`);
await side.close(); await client.close();
