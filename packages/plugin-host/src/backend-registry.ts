import {
  type CapabilityBackend,
  type CapabilityBackendRegistry,
  type CapabilityHandles,
  type CapabilityName,
  type CapabilityRequest,
  QuiverError,
} from '@quiver/types';

/** The owner name of backends the host registers itself (the first-party ones). */
export const HOST_BACKEND_OWNER = 'host';

interface BackendEntry {
  backend: CapabilityBackend;
  /** The plugin that registered it; `host` for the host's own. */
  owner: string;
}

export interface PersonalityBackendOptions {
  personalityId: string;
  /** Plugins the personality enables; only their backends (and the host's) are candidates. */
  plugins: readonly string[];
  /** The owner to use per capability where several could serve (`backends: { fs_reach: my-plugin }`). */
  chosen: Readonly<Partial<Record<CapabilityName, string>>>;
}

/**
 * Capability backends by capability and owner. Sessions never read it directly: each
 * personality gets a view with exactly one backend per capability, from the host or from a
 * plugin it enables (`forPersonality`).
 */
export class DefaultCapabilityBackendRegistry implements CapabilityBackendRegistry {
  readonly #backends = new Map<CapabilityName, BackendEntry[]>();

  register(backend: CapabilityBackend, owner: string = HOST_BACKEND_OWNER): () => void {
    const list = this.#backends.get(backend.capability) ?? [];
    const entry: BackendEntry = { backend, owner };
    list.push(entry);
    this.#backends.set(backend.capability, list);
    return () => {
      const current = this.#backends.get(backend.capability) ?? [];
      const index = current.indexOf(entry);
      if (index >= 0) current.splice(index, 1);
    };
  }

  has(capability: CapabilityName): boolean {
    return (this.#backends.get(capability)?.length ?? 0) > 0;
  }

  /** The one backend of a capability; two without a choice is the same error as in a personality. */
  async resolve<K extends CapabilityName>(request: CapabilityRequest<K>): Promise<CapabilityHandles[K]> {
    const entries = this.#backends.get(request.capability) ?? [];
    const backend = pickBackend(request.capability, entries, undefined, request.personalityId);
    return resolveWith(backend as CapabilityBackend<K> | undefined, request);
  }

  /**
   * The backends a personality's sessions use. Throws `backend_conflict` when two candidates
   * serve one capability and the personality names neither, and `config_invalid` when it names
   * an owner that has no backend for that capability among its candidates.
   */
  forPersonality(options: PersonalityBackendOptions): CapabilityBackendRegistry {
    const enabled = new Set([HOST_BACKEND_OWNER, ...options.plugins]);
    // Read at each call: plugins may add or remove backends after the personality was first used.
    const pick = (capability: CapabilityName) =>
      pickBackend(
        capability,
        (this.#backends.get(capability) ?? []).filter((entry) => enabled.has(entry.owner)),
        options.chosen[capability],
        options.personalityId,
      );
    for (const capability of new Set([
      ...this.#backends.keys(),
      ...(Object.keys(options.chosen) as CapabilityName[]),
    ]))
      pick(capability);
    return {
      has: (capability) => {
        try {
          return pick(capability) !== undefined;
        } catch {
          // A conflict that arose later: resolve() reports it, so the call fails with its fix.
          return true;
        }
      },
      resolve: async <K extends CapabilityName>(request: CapabilityRequest<K>) =>
        resolveWith(pick(request.capability) as CapabilityBackend<K> | undefined, request),
    };
  }
}

function pickBackend(
  capability: CapabilityName,
  candidates: readonly BackendEntry[],
  chosen: string | undefined,
  personalityId: string,
): CapabilityBackend | undefined {
  if (chosen !== undefined) {
    const match = candidates.filter((entry) => entry.owner === chosen);
    if (match.length === 1) return match[0]?.backend;
    const owners = candidates.map((entry) => entry.owner);
    throw new QuiverError(
      'config_invalid',
      `Personality "${personalityId}" uses backend "${chosen}" for "${capability}", but ${owners.length === 0 ? 'no backend provides it' : `only ${owners.map((owner) => `"${owner}"`).join(', ')} can`}.`,
      {
        fix: `Enable plugin "${chosen}" in the personality's \`plugins\`, or name one of the available backends under \`backends.${capability}\`.`,
        details: { personality: personalityId, capability, chosen, available: owners },
      },
    );
  }
  if (candidates.length <= 1) return candidates[0]?.backend;
  const owners = candidates.map((entry) => entry.owner);
  throw new QuiverError(
    'backend_conflict',
    `Personality "${personalityId}" has ${owners.length} backends for the "${capability}" capability (${owners.map((owner) => `"${owner}"`).join(', ')}); a second backend never silently replaces the first.`,
    {
      fix: `Name the one to use in the personality: \`backends: { ${capability}: ${owners[owners.length - 1]} }\`, or disable the plugins you do not want.`,
      details: { personality: personalityId, capability, owners },
    },
  );
}

function resolveWith<K extends CapabilityName>(
  backend: CapabilityBackend<K> | undefined,
  request: CapabilityRequest<K>,
): Promise<CapabilityHandles[K]> {
  if (!backend) {
    return Promise.reject(
      new QuiverError('not_available', `No backend provides the "${request.capability}" capability.`, {
        fix: 'Register a capability backend for it (createQuiver registers the first-party ones).',
      }),
    );
  }
  return Promise.resolve(backend.resolve(request));
}
