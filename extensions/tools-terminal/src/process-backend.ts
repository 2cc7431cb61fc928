import path from 'node:path';
import type { CapabilityBackend, ProcessHandle, SandboxMode } from '@quiver/types';
import { minimalEnvironment } from './child-environment.js';
import { DEFAULT_SPILL_LIMIT_BYTES } from './output-window.js';

export interface ProcessBackendOptions {
  /** Absolute real paths of the workspace roots; the first is the default cwd. */
  roots: readonly string[];
  /** The data directory; spill files go to `<dataDir>/terminal`. */
  dataDir: string;
  sandbox: SandboxMode;
  /** Unix sockets (absolute paths) a sandboxed command may connect to; the rest are hidden. */
  unixSockets?: readonly string[];
  /** Where the minimal environment is picked from; defaults to this process's environment. */
  sourceEnv?: Readonly<Record<string, string | undefined>>;
  /** The most bytes one spill file takes (default 64 MiB); the rest of the output is not kept. */
  spillLimitBytes?: number;
  /** What the sandbox mounts read-only (`ProcessHandle.readOnlyPaths`). */
  readOnlyPaths?: readonly string[];
  /** What the sandbox hides (`ProcessHandle.hiddenPaths`). */
  hiddenPaths?: readonly string[];
}

/** Provides the `process` capability: roots, a spill directory and an environment without secrets. */
export function createProcessBackend(options: ProcessBackendOptions): CapabilityBackend<'process'> {
  const handle: ProcessHandle = Object.freeze({
    roots: Object.freeze([...options.roots]),
    spillDir: path.join(options.dataDir, 'terminal'),
    baseEnv: Object.freeze(minimalEnvironment(options.sourceEnv ?? process.env)),
    sandbox: options.sandbox,
    ...(options.unixSockets?.length ? { unixSockets: Object.freeze([...options.unixSockets]) } : {}),
    spillLimitBytes: options.spillLimitBytes ?? DEFAULT_SPILL_LIMIT_BYTES,
    ...(options.readOnlyPaths?.length ? { readOnlyPaths: Object.freeze([...options.readOnlyPaths]) } : {}),
    ...(options.hiddenPaths?.length ? { hiddenPaths: Object.freeze([...options.hiddenPaths]) } : {}),
  });
  return { capability: 'process', resolve: () => handle };
}
