import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
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
  const update = (change: (pins: McpToolPinFile) => void): void => {
    const outcome = readPinFile(file, real);
    if (outcome.kind === 'unreadable') return;
    change(outcome.file);
    writePinFile(file, outcome.file);
  };
  return {
    pinned(server, tool) {
      const outcome = readPinFile(file, real);
      if (outcome.kind === 'unreadable') return UNREADABLE;
      return outcome.file.servers[server]?.[tool]?.pinned;
    },
    pin(server, tool, pin) {
      update((pins) => {
        pins.servers[server] = { ...pins.servers[server], [tool]: { pinned: pin } };
      });
    },
    settle(server, tool) {
      const outcome = readPinFile(file, real);
      if (outcome.kind === 'unreadable' || outcome.file.servers[server]?.[tool]?.pending === undefined)
        return;
      update((pins) => {
        const entry = pins.servers[server]?.[tool];
        if (entry !== undefined) delete entry.pending;
      });
    },
    quarantine(server, tool, pending) {
      update((pins) => {
        const entry = pins.servers[server]?.[tool];
        if (entry !== undefined) entry.pending = pending;
      });
    },
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
  const file = mcpToolPinsPath(workspace, env);
  const outcome = readPinFile(file, realWorkspace(workspace));
  if (outcome.kind === 'unreadable') return false;
  const entry = outcome.file.servers[change.server]?.[change.tool];
  if (entry?.pending?.hash !== change.hash) return false;
  outcome.file.servers[change.server]![change.tool] = { pinned: entry.pending };
  writePinFile(file, outcome.file);
  return true;
}
