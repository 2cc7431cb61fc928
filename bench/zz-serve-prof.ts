import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
const client = new Client({ name: 'p', version: '1' });
const args = process.env.PROF ? ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir=/tmp/prof/serve'] : [];
await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args, '/work/main/apps/cli/dist/bin.js', '--trust-project', 'serve'], cwd: '/tmp/prof/servews', env: { ...env, XDG_DATA_HOME: '/tmp/prof/servexdg', NO_COLOR: '1' }, stderr: 'inherit' }), { timeout: 120000 });
const N = Number(process.env.N ?? 10000);
const t = performance.now();
for (let i = 0; i < N; i++) { const r = await client.callTool({ name: 'terminal_list', arguments: {} }); if (r.isError) throw new Error(JSON.stringify(r)); }
console.log('per call us', ((performance.now() - t) / N * 1000).toFixed(1));
await client.close();
await new Promise((r) => setTimeout(r, 2000));
