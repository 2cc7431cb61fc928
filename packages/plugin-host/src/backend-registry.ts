import {
  type CapabilityBackend,
  type CapabilityBackendRegistry,
  type CapabilityHandles,
  type CapabilityName,
  type CapabilityRequest,
  QuiverError,
} from '@quiver/types';

/** Capability backends by capability; the most recently registered one answers. */
export class DefaultCapabilityBackendRegistry implements CapabilityBackendRegistry {
  readonly #backends = new Map<CapabilityName, CapabilityBackend[]>();

  register(backend: CapabilityBackend): () => void {
    const list = this.#backends.get(backend.capability) ?? [];
    list.push(backend);
    this.#backends.set(backend.capability, list);
    return () => {
      const current = this.#backends.get(backend.capability) ?? [];
      const index = current.indexOf(backend);
      if (index >= 0) current.splice(index, 1);
    };
  }

  has(capability: CapabilityName): boolean {
    return (this.#backends.get(capability)?.length ?? 0) > 0;
  }

  async resolve<K extends CapabilityName>(request: CapabilityRequest<K>): Promise<CapabilityHandles[K]> {
    const list = this.#backends.get(request.capability);
    const backend = list?.[list.length - 1] as CapabilityBackend<K> | undefined;
    if (!backend) {
      throw new QuiverError('not_available', `No backend provides the "${request.capability}" capability.`, {
        fix: 'Register a capability backend for it (createQuiver registers the first-party ones).',
      });
    }
    return backend.resolve(request);
  }
}
