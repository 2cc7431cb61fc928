// What a listing of every catalog tool costs the MCP tool pins (issue 38, serve as a gateway):
// the bridge asks the pin store for each tool's pin at every listing. Baseline: one read and parse
// of the same pin file, which is what a listing needs at the least. Run from bench/:
//   node --import tsx mcp-pins.bench.ts
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mcpToolPinsPath, openMcpToolPins } from '@quiver/plugin-host';
import { median } from './measure.js';
import { CATALOGS } from './search-catalog.js';

export async function run(): Promise<void> {
  const made: string[] = [];
  function freshStore() {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'quiver-pins-bench-ws-'));
    const env = { XDG_DATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'quiver-pins-bench-xdg-')) };
    made.push(workspace, env.XDG_DATA_HOME);
    return { workspace, env, store: openMcpToolPins(workspace, env) };
  }
  const tools: Array<{ server: string; name: string; definition: Record<string, unknown> }> = [];
  for (const file of readdirSync(CATALOGS).filter((name) => name.endsWith('.json'))) {
    const catalog = JSON.parse(readFileSync(path.join(CATALOGS, file), 'utf8')) as {
      server: string;
      tools: Array<{ name: string } & Record<string, unknown>>;
    };
    for (const tool of catalog.tools)
      tools.push({ server: catalog.server, name: tool.name, definition: tool });
  }
  const pinOf = (tool: (typeof tools)[number]) => ({
    hash: tool.name,
    definition: { ...tool.definition, name: tool.name },
    at: '',
  });

  // A workspace's first start: every tool pinned one by one (before), or each server's tools at once.
  const oneByOne = freshStore();
  let start = process.hrtime.bigint();
  for (const tool of tools) oneByOne.store.pin(tool.server, tool.name, pinOf(tool));
  const oneByOneMs = Number(process.hrtime.bigint() - start) / 1e6;
  const { workspace, env, store } = freshStore();
  const servers = new Map<string, typeof tools>();
  for (const tool of tools) servers.set(tool.server, [...(servers.get(tool.server) ?? []), tool]);
  start = process.hrtime.bigint();
  for (const [server, own] of servers)
    store.pinAll?.(
      server,
      own.map((tool) => [tool.name, pinOf(tool)] as const),
    );
  const atOnceMs = Number(process.hrtime.bigint() - start) / 1e6;
  const file = mcpToolPinsPath(workspace, env);
  // A workspace's pins are written at its first start; listings come later.
  const earlier = new Date(Date.now() - 60_000);
  utimesSync(file, earlier, earlier);

  function time(run: () => void, rounds: number): number {
    const samples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const start = process.hrtime.bigint();
      run();
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return median(samples);
  }

  const baseline = time(() => JSON.parse(readFileSync(file, 'utf8')), 21);
  const listing = time(() => {
    for (const tool of tools)
      if (store.pinned(tool.server, tool.name) === undefined) throw new Error('unpinned');
  }, 21);
  console.log(`pin file: ${tools.length} tools, ${(readFileSync(file).length / 1024).toFixed(0)} KB`);
  console.log(`one read and parse of the file (baseline): ${baseline.toFixed(2)} ms`);
  console.log(
    `a listing's pin questions (${tools.length}): ${listing.toFixed(2)} ms = ${(listing / baseline).toFixed(2)}× the baseline`,
  );
  console.log(
    `first start, ${tools.length} tools of ${servers.size} servers pinned: one by one ${oneByOneMs.toFixed(0)} ms, each server at once ${atOnceMs.toFixed(0)} ms (${(oneByOneMs / atOnceMs).toFixed(1)}× less)`,
  );
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
