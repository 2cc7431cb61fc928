import { DefaultToolRegistry } from '@quiver/core';
import { assembleToolPool } from '@quiver/runtime';
import { ok } from '@quiver/types';
import { z } from 'zod';
const size = 10000, SERVERS = 20;
const registry = new DefaultToolRegistry();
const schema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
const tools = [];
for (let i = 0; i < 1000; i++) tools.push({ name: `builtin_tool_${i}`, description: 'b', input: z.object({ query: z.string() }), capabilities: {}, execute: () => ok('') });
registry.registerAll(tools, { pluginId: 'bench' });
const mcp = [];
for (let i = 0; i < size - 1000; i++) { const server = `server${i % SERVERS}`; mcp.push({ name: `mcp__${server}__operation_${i}`, description: 'x', input: z.record(z.string(), z.unknown()), parametersJsonSchema: schema, capabilities: {}, mcp: { server, originalName: `operation_${i}` }, execute: () => ok('') }); }
registry.registerAll(mcp);
const policy = { personalityId: 'bench', plugins: ['bench'], mcpServers: Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`server${i}`, { excludeTools: ['never_*'] }])), permissions: { deny: ['mcp__server3__operation_3', 'terminal(rm:*)'] }, agents: {}, budget: { resultChars: 80000 }, deferLoading: { enabled: 'auto' } };
const run = () => assembleToolPool({ registered: registry.list(), policy, options: { model: 'claude-sonnet-4-5' } });
for (let i = 0; i < 20; i++) run();
const times = [];
for (let i = 0; i < 60; i++) { const t = performance.now(); run(); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log('median ms', times[30].toFixed(2));
