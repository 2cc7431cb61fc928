import { getEventListeners } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { McpBridge } from '@quiver/mcp-bridge';
import type { Tool, ToolContext } from '@quiver/types';
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const controller = new AbortController();
const ctx = { callId: 'x', sessionId: 's', personalityId: 'p', agent: { kind: 'main', id: 'a' }, turn: 1, signal: controller.signal, emit: () => {}, budget: 80000, dryRun: false, capabilities: {}, attachments: [], session: { get: () => undefined, set: () => {}, delete: () => {} } } as unknown as ToolContext;
const tools = new Map<string, Tool>();
const bridge = new McpBridge({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } }, register: (t) => { tools.set(t.name, t); return () => tools.delete(t.name); } });
await bridge.start();
const echo = tools.get('mcp__everything__echo')!;
for (const c of [1, 10]) {
  for (let i = 0; i < 50; i++) await Promise.all(Array.from({ length: c }, () => echo.execute({ message: 'x' }, ctx)));
  console.log(`concurrency ${c}: ${getEventListeners(controller.signal, 'abort').length} abort listeners after 50 rounds`);
}
await bridge.stop();
