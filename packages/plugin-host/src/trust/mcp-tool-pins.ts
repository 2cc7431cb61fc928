import {
  type FSWatcher,
  mkdirSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
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
  /** Pins several tools of a server in one write of the file, each as `pin` would. */
  pinAll?(server: string, pins: ReadonlyArray<readonly [tool: string, pin: McpToolPin]>): void;
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

/** How recent a change may still share its times with the next one (coarse file system clocks). */
const RACY_MS = 1_000;

/** What identifies one version of the pin file: every write replaces it (a new inode), an edit in place changes its times or size. */
function versionOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * Reads the pin file as `readPinFile` does, parsing it again only when the file changed since the
 * last read: a listing asks for each tool's pin, and a file holding every server's definitions
 * parsed once a tool made a listing's cost grow with the square of the tools.
 */
function cachedPinReader(file: string, workspace: string): () => ReadOutcome {
  let version: string | undefined;
  let outcome: ReadOutcome | undefined;
  return () => {
    let stats: Stats;
    try {
      stats = statSync(file);
    } catch {
      version = undefined;
      return readPinFile(file, workspace);
    }
    const current = versionOf(stats);
    if (outcome === undefined || current !== version) {
      outcome = readPinFile(file, workspace);
      // A file changed within the file system's timestamp granularity of the last change may
      // change again with the same times and size ("racily clean", as git calls it): such a
      // version is read again at the next question. A write between the stat and the read shows
      // as a newer version then too.
      version = Date.now() - stats.mtimeMs < RACY_MS ? undefined : current;
    }
    return outcome;
  };
}

/**
 * The pin store of a workspace, read afresh whenever the file changed so that an approval given in
 * another process applies at the server's next listing. An unreadable file withholds every
 * server tool and is never overwritten.
 */
export function openMcpToolPins(workspace: string, env: NodeJS.ProcessEnv = process.env): McpToolPinStore {
  const file = mcpToolPinsPath(workspace, env);
  const real = realWorkspace(workspace);
  const update = (change: (pins: McpToolPinFile) => boolean): void => void updatePinFile(file, real, change);
  const read = cachedPinReader(file, real);
  // The first pin of a tool wins: another process may have pinned it since it was last read.
  const pinFirst = (server: string, entries: ReadonlyArray<readonly [string, McpToolPin]>): void =>
    update((pins) => {
      let changed = false;
      for (const [tool, pin] of entries) {
        const tools = (pins.servers[server] ??= {});
        if (tools[tool] !== undefined) continue;
        tools[tool] = { pinned: pin };
        changed = true;
      }
      return changed;
    });
  return {
    pinned(server, tool) {
      const outcome = read();
      if (outcome.kind === 'unreadable') return UNREADABLE;
      return outcome.file.servers[server]?.[tool]?.pinned;
    },
    pin(server, tool, pin) {
      pinFirst(server, [[tool, pin]]);
    },
    pinAll: (server, entries) => pinFirst(server, entries),
    settle(server, tool) {
      const outcome = read();
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
