import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** server-everything's entry, as the bridge's dependency installs it: the real MCP server the tests bridge. */
export const EVERYTHING_SERVER = path.join(
  path.dirname(
    createRequire(path.join(REPO, 'extensions/mcp-bridge/package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist/index.js',
);

/** A `quiver.yaml` `mcpServers` entry (two-space indent) that runs server-everything over stdio as `name`. */
export function everythingServerYaml(name = 'everything'): string {
  return `  ${name}: ${JSON.stringify({ command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] })}`;
}

/** Trust records of CLI runs go here, never to the real user data directory (created only if written). */
export const TEST_XDG_DATA_HOME = path.join(os.tmpdir(), `quiver-cli-xdg-${process.pid}`);

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `quiver` binary as a real child process. */
export function quiver(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: TEST_XDG_DATA_HOME, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function tempDir(prefix = 'quiver-cli-'): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Temp directories removed after each test: `const dirs = tempDirs(); afterEach(dirs.cleanup)`. */
export function tempDirs(prefix?: string): { make(): string; cleanup(): void } {
  const made: Array<() => void> = [];
  return {
    make() {
      const temp = tempDir(prefix);
      made.push(temp.cleanup);
      return temp.dir;
    },
    cleanup() {
      for (const cleanup of made.splice(0)) cleanup();
    },
  };
}

export function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export function linkDependency(dir: string, name: string, from?: string): void {
  const source = from ?? path.dirname(require.resolve(`${name}/package.json`));
  const target = path.join(dir, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(source, target, 'dir');
}
