import { spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGrepSearchTool, editFileTool, readFileTool } from '@quiver/tools-code';
import { DEFAULT_RESULT_BUDGET, type SessionState, type Tool, type ToolContext } from '@quiver/types';
import { Bench } from 'tinybench';
import { p50MsOf as median, round } from './measure.js';
import { systemToolsPresent } from './not-run.js';

/**
 * grep_search over the monorepo's node_modules/.pnpm against running `rg` directly with the same
 * flags (and the JavaScript engine against the same baseline); read_file and edit_file on a
 * 10 MB file against plain fs.readFile / fs.writeFile.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const PATTERN = 'Symbol\\.asyncDispose';

function session(): SessionState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}

function context(
  root: string,
  mode: 'read' | 'write',
  state: SessionState,
  budget = Number.POSITIVE_INFINITY,
): ToolContext {
  return {
    callId: 'bench',
    sessionId: 'bench',
    personalityId: 'bench',
    agent: { kind: 'main', id: 'bench' },
    turn: 0,
    signal: new AbortController().signal,
    emit: () => undefined,
    budget,
    dryRun: false,
    capabilities: { fs_reach: { roots: [root], mode } },
    attachments: [],
    session: state,
  };
}

async function call(tool: Tool, args: unknown, ctx: ToolContext): Promise<void> {
  const result = await tool.execute(tool.input.parse(args), ctx);
  if (!result.ok) throw new Error(`${tool.name} failed: ${result.error}`);
}

function runRipgrepDirectly(directory: string): Promise<void> {
  const args = [
    '--json',
    '--no-config',
    '--sort=path',
    '--hidden',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    '--no-messages',
    '--glob=!.git',
    '--case-sensitive',
    '--regexp',
    PATTERN,
    '--',
    '.',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('rg', args, { cwd: directory, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function benchGrep(): Promise<void> {
  const tree = await realpath(path.resolve(here, '..', 'node_modules', '.pnpm'));
  const ctx = context(tree, 'read', session());
  const args = { pattern: PATTERN, max_results: 5000 };
  const ripgrepTool = createGrepSearchTool({ engine: 'ripgrep' });
  const javascriptTool = createGrepSearchTool({ engine: 'javascript' });
  const bench = new Bench({ time: 0, iterations: 3, warmup: true, warmupIterations: 1, warmupTime: 0 });
  bench
    .add('baseline: rg --json directly', () => runRipgrepDirectly(tree))
    .add('grep_search (ripgrep engine)', () => call(ripgrepTool, args, ctx))
    .add('grep_search (JavaScript engine)', () => call(javascriptTool, args, ctx));
  globalThis.gc?.();
  await bench.run();
  const baseline = median(bench, 'baseline: rg --json directly');
  console.log(`grep over ${tree} for /${PATTERN}/ (case-sensitive, as smart case picks)`);
  console.table(
    bench.tasks.map((task) => ({
      task: task.name,
      'median ms': round(median(bench, task.name)),
      'vs rg directly': `${round(median(bench, task.name) / baseline)}×`,
    })),
  );
}

async function benchLargeFile(): Promise<void> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'quiver-code-bench-')));
  try {
    const content = `${`${'z'.repeat(99)}\n`.repeat(100_000)}marker-a\n`;
    const file = path.join(root, 'huge.txt');
    // The baselines write their own copy: a write to the tool's file would make its edits stale.
    const baselineFile = path.join(root, 'baseline.txt');
    await writeFile(file, content);
    await writeFile(baselineFile, content);
    const ctx = context(root, 'write', session());
    const budgeted = context(root, 'read', session(), DEFAULT_RESULT_BUDGET);
    let marker = 'a';
    const bench = new Bench({ time: 1_000, iterations: 5, warmup: true, warmupIterations: 1 });
    bench
      .add('baseline: fs.readFile utf8', async () => {
        await readFile(file, 'utf8');
      })
      .add('read_file (whole 10 MB file)', () => call(readFileTool, { path: 'huge.txt' }, ctx))
      .add('read_file (default 80,000-char budget)', () => call(readFileTool, { path: 'huge.txt' }, budgeted))
      .add('baseline: fs.readFile + replace + fs.writeFile', async () => {
        const text = await readFile(baselineFile, 'utf8');
        await writeFile(baselineFile, text.replace('marker-', 'marker-'));
      })
      .add('edit_file (one replacement, atomic write)', async () => {
        const next = marker === 'a' ? 'b' : 'a';
        await call(
          editFileTool,
          { path: 'huge.txt', old_string: `marker-${marker}`, new_string: `marker-${next}` },
          ctx,
        );
        marker = next;
      });
    globalThis.gc?.();
    await bench.run();
    console.log('10 MB file (100,000 lines)');
    const rows: Array<[task: string, baseline: string]> = [
      ['baseline: fs.readFile utf8', 'baseline: fs.readFile utf8'],
      ['read_file (whole 10 MB file)', 'baseline: fs.readFile utf8'],
      ['read_file (default 80,000-char budget)', 'baseline: fs.readFile utf8'],
      ['baseline: fs.readFile + replace + fs.writeFile', 'baseline: fs.readFile + replace + fs.writeFile'],
      ['edit_file (one replacement, atomic write)', 'baseline: fs.readFile + replace + fs.writeFile'],
    ];
    console.table(
      rows.map(([task, baseline]) => ({
        task,
        'median ms': round(median(bench, task)),
        'vs baseline': `${round(median(bench, task) / median(bench, baseline))}×`,
      })),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  if (systemToolsPresent('code: grep_search against rg', ['rg'])) await benchGrep();
  await benchLargeFile();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
