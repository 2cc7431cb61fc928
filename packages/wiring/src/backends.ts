import { realpathSync } from 'node:fs';
import { createReadDenyMatcher, type ReadDenyMatcher } from '@quiver/permissions';
import type { BackendFactoryContext, Personality } from '@quiver/plugin-host';
import type { CapabilityBackend, SandboxMode } from '@quiver/types';

function realRoot(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return workspace;
  }
}

/** Secrets a personality grants: `secrets: { terminal: [GITHUB_TOKEN], '*': [...] }`, read from the environment. */
function secretsBackend(
  context: BackendFactoryContext,
  env: NodeJS.ProcessEnv,
): CapabilityBackend<'secrets'> {
  return {
    capability: 'secrets',
    resolve(request) {
      const grants = (context.personality(request.personalityId)?.secrets ?? {}) as Record<string, string[]>;
      const names = new Set([...(grants['*'] ?? []), ...(grants[request.toolName] ?? [])]);
      const declared = request.declaration === true ? undefined : request.declaration.names;
      const granted: Record<string, string> = {};
      for (const name of names) {
        if (declared && !declared.includes(name)) continue;
        const value = env[name];
        if (value !== undefined) granted[name] = value;
      }
      return { granted };
    },
  };
}

/**
 * The personality's read denies as a predicate on real paths, per tool, so file tools withhold
 * denied files they meet while walking (or under another name) as the permission check would.
 * An unknown personality has no rules to go by: everything is denied (fail closed).
 */
function readDenyMatchers(context: BackendFactoryContext) {
  const cache = new WeakMap<Personality, Map<string, ReadDenyMatcher>>();
  return (
    personalityId: string,
    toolName: string,
    sessionDenies: readonly string[] = [],
  ): ReadDenyMatcher => {
    const personality = context.personality(personalityId);
    if (personality === undefined) return () => `personality "${personalityId}" is not loaded`;
    let byTool = cache.get(personality);
    if (byTool === undefined) {
      byTool = new Map();
      cache.set(personality, byTool);
    }
    const key = JSON.stringify([toolName, sessionDenies]);
    let matcher = byTool.get(key);
    if (matcher === undefined) {
      matcher = createReadDenyMatcher({
        workspace: context.workspace,
        deny: [...(personality.permissions.deny ?? []), ...sessionDenies],
        toolName,
        readDeniedPaths: context
          .protectedPaths()
          .filter((entry) => entry.read === 'denied')
          .map((entry) => ({
            path: entry.path,
            reason: `protected: ${entry.reason ?? 'no tool may read it'}`,
          })),
      });
      byTool.set(key, matcher);
    }
    return matcher;
  };
}

/**
 * The first-party capability backends for a workspace and data dir. Plugin storage comes from the
 * backend quiver.yaml configures (`createQuiver` adds SQLite's or PostgreSQL's), not from here.
 */
export function createFirstPartyBackends(
  context: BackendFactoryContext,
  env: NodeJS.ProcessEnv = process.env,
): CapabilityBackend[] {
  const roots = [realRoot(context.workspace)];
  const processBackends = new Map<string, CapabilityBackend<'process'>>();
  // Imported when a tool first asks for a process: a call of a file tool never loads the terminal's.
  let terminal: Promise<typeof import('@quiver/tools-terminal')> | undefined;
  const processFor = async (sandbox: SandboxMode, unixSockets: readonly string[]) => {
    terminal ??= import('@quiver/tools-terminal');
    const { createProcessBackend } = await terminal;
    const readOnlyPaths = context
      .protectedPaths()
      .filter((entry) => entry.sandbox !== 'tools-only')
      .map((entry) => entry.path);
    const hiddenPaths = context
      .protectedPaths()
      .filter((entry) => entry.read === 'denied')
      .map((entry) => entry.path);
    const key = JSON.stringify([sandbox, unixSockets, readOnlyPaths, hiddenPaths]);
    let backend = processBackends.get(key);
    if (!backend) {
      backend = createProcessBackend({
        roots,
        dataDir: context.dataDir,
        sandbox,
        unixSockets,
        readOnlyPaths,
        hiddenPaths,
        sourceEnv: env,
      });
      processBackends.set(key, backend);
    }
    return backend;
  };
  const readDenies = readDenyMatchers(context);
  return [
    {
      capability: 'process',
      resolve: async (request) => {
        const personality = context.personality(request.personalityId);
        const backend = await processFor(
          (personality?.sandbox as SandboxMode | undefined) ?? 'auto',
          personality?.unixSockets ?? [],
        );
        return backend.resolve(request as never);
      },
    } satisfies CapabilityBackend<'process'> as CapabilityBackend,
    {
      capability: 'fs_reach',
      resolve: (request) => ({
        roots,
        mode: request.declaration === true ? 'write' : (request.declaration.mode ?? 'write'),
        readDenied: readDenies(request.personalityId, request.toolName, request.sessionDenies),
      }),
    } satisfies CapabilityBackend<'fs_reach'> as CapabilityBackend,
    secretsBackend(context, env) as CapabilityBackend,
    {
      capability: 'network',
      resolve: (request) => ({
        fetch: globalThis.fetch,
        ...(request.declaration !== true && request.declaration.domains
          ? { allowedDomains: request.declaration.domains }
          : {}),
      }),
    } satisfies CapabilityBackend<'network'> as CapabilityBackend,
    {
      capability: 'attachments',
      resolve: () => ({ turn: [] }),
    } satisfies CapabilityBackend<'attachments'> as CapabilityBackend,
  ];
}
