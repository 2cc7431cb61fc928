import { type FSWatcher, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withFileLock } from './file-lock.js';
import { realWorkspace, trustDirectory, workspaceRecordPath } from './trust-store.js';

/** A pinned or pending definition of a server's tool (the bridge decides what is in it). */
export interface McpToolPin {
  hash: string;
  definition: { name: string } & Record<string, unknown>;
  at: string;
}

export interface McpToolPinEntry {
  pinned: McpToolPin;
  /** A changed definition the server offered since; withheld until a person approves it. */
  pending?: McpToolPin;
}

export interface McpToolPinFile {
  version: 1;
  workspace: string;
  /** server → tool (the server's own name) → entry. */
  servers: Record<string, Record<string, McpToolPinEntry>>;
}

/** The store the MCP bridge pins definitions in. */
export interface McpToolPinStore {
  pinned(server: string, tool: string): McpToolPin | undefined;
  pin(server: string, tool: string, pin: McpToolPin): void;
  quarantine(server: string, tool: string, pending: McpToolPin): void;
  settle(server: string, tool: string): void;
  /** Calls `onChange` shortly after the pin file was written, by any process; returns the stop. */
  watch(onChange: () => void): () => void;
}

/** A pin no definition matches: what an unreadable pin file stands for (fail closed). */
const UNREADABLE: McpToolPin = {
  hash: 'unreadable',
  definition: { name: '' },
  at: 'an unreadable pin file (delete or repair it)',
};

/** `$XDG_DATA_HOME/quiver/mcp-pins/<workspace key>.json`, next to the trust records. */
export function mcpToolPinsPath(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return workspaceRecordPath(path.join(path.dirname(trustDirectory(env)), 'mcp-pins'), workspace);
}

type ReadOutcome = { kind: 'file'; file: McpToolPinFile } | { kind: 'unreadable' };

function readPinFile(file: string, workspace: string): ReadOutcome {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { kind: 'file', file: { version: 1, workspace, servers: {} } };
    return { kind: 'unreadable' };
  }
  try {
    const parsed = JSON.parse(text) as McpToolPinFile;
    const valid =
      parsed?.version === 1 &&
      parsed.workspace === workspace &&
      typeof parsed.servers === 'object' &&
      parsed.servers !== null;
    return valid ? { kind: 'file', file: parsed } : { kind: 'unreadable' };
  } catch {
    return { kind: 'unreadable' };
  }
}

function writePinFile(file: string, pins: McpToolPinFile): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * Reads, changes and writes the pin file under its lock, so that two processes pinning at once
 * both keep their pins; false when the file cannot be read (it is then left as it is).
 */
function updatePinFile(file: string, workspace: string, change: (pins: McpToolPinFile) => boolean): boolean {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return withFileLock(file, () => {
    const outcome = readPinFile(file, workspace);
    if (outcome.kind === 'unreadable' || !change(outcome.file)) return false;
    writePinFile(file, outcome.file);
    return true;
  });
}

/** The pins of a workspace; undefined when the file exists but cannot be read or trusted. */
export function readMcpToolPins(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): McpToolPinFile | undefined {
  const outcome = readPinFile(mcpToolPinsPath(workspace, env), realWorkspace(workspace));
  return outcome.kind === 'file' ? outcome.file : undefined;
}

/**
 * The pin store of a workspace, read afresh on every question so that an approval given in
 * another process applies at the server's next listing. An unreadable file withholds every
 * server tool and is never overwritten.
 */
export function openMcpToolPins(workspace: string, env: NodeJS.ProcessEnv = process.env): McpToolPinStore {
  const file = mcpToolPinsPath(workspace, env);
  const real = realWorkspace(workspace);
  const update = (change: (pins: McpToolPinFile) => boolean): void => void updatePinFile(file, real, change);
  return {
    pinned(server, tool) {
      const outcome = readPinFile(file, real);
      if (outcome.kind === 'unreadable') return UNREADABLE;
      return outcome.file.servers[server]?.[tool]?.pinned;
    },
    pin(server, tool, pin) {
      // The first pin wins: another process may have pinned this tool since it was last read.
      update((pins) => {
        if (pins.servers[server]?.[tool] !== undefined) return false;
        pins.servers[server] = { ...pins.servers[server], [tool]: { pinned: pin } };
        return true;
      });
    },
    settle(server, tool) {
      const outcome = readPinFile(file, real);
      if (outcome.kind === 'unreadable' || outcome.file.servers[server]?.[tool]?.pending === undefined)
        return;
      update((pins) => {
        const entry = pins.servers[server]?.[tool];
        if (entry?.pending === undefined) return false;
        delete entry.pending;
        return true;
      });
    },
    watch: (onChange) => watchPinFile(file, onChange),
    quarantine(server, tool, pending) {
      update((pins) => {
        const entry = pins.servers[server]?.[tool];
        if (entry === undefined) return false;
        entry.pending = pending;
        return true;
      });
    },
  };
}

/** Several writes in a row (a rename shows as more than one event) become one call. */
const WATCH_SETTLE_MS = 50;

/**
 * Watches the directory, not the file: every write replaces the file by a rename. Without a
 * watch (the directory cannot be made or watched), approvals apply at the server's next listing.
 */
function watchPinFile(file: string, onChange: () => void): () => void {
  const name = path.basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    watcher = watch(path.dirname(file), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, WATCH_SETTLE_MS);
      timer.unref();
    });
  } catch {
    return () => {};
  }
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}

/**
 * Pins the pending definition a person reviewed; false when it is no longer the pending one
 * (the server changed it again since it was shown).
 */
export function approveMcpToolDefinition(
  workspace: string,
  change: { server: string; tool: string; hash: string },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return updatePinFile(mcpToolPinsPath(workspace, env), realWorkspace(workspace), (pins) => {
    const entry = pins.servers[change.server]?.[change.tool];
    if (entry?.pending?.hash !== change.hash) return false;
    pins.servers[change.server]![change.tool] = { pinned: entry.pending };
    return true;
  });
}
