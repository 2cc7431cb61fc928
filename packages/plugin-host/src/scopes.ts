import { QuiverError } from '@quiver/types';
import type { DependencyContainer } from 'tsyringe';
import type { ServiceScope, Token } from './tokens.js';

const SCOPE_RANK: Record<ServiceScope, number> = { root: 0, personality: 1, session: 2 };

// tsyringe records `@inject(token)` parameters under this metadata key.
const INJECTION_TOKENS_KEY = 'injectionTokens';

/**
 * A service the container builds once per scope: from a class whose constructor parameters use
 * `@inject(token)`, or from a factory that names the tokens it is built from.
 */
export interface ServiceDescriptor<T = unknown> {
  token: symbol | Token<T>;
  scope: ServiceScope;
  /** A class decorated with @injectable() whose parameters use @inject(token). */
  useClass?: new (
    ...args: any[]
  ) => T;
  /** Builds the service from the services of `inject`, in that order. */
  useFactory?: (...dependencies: any[]) => T;
  inject?: readonly symbol[];
  /** Releases what the service holds when its scope ends (a database connection). */
  dispose?(service: T): void | Promise<void>;
}

function injectedTokens(target: Function): symbol[] {
  const getMetadata = (Reflect as unknown as { getOwnMetadata?: (key: string, target: object) => unknown })
    .getOwnMetadata;
  const recorded = getMetadata?.call(Reflect, INJECTION_TOKENS_KEY, target) as
    | Record<string, unknown>
    | undefined;
  if (!recorded) return [];
  // Depending on the decorator, tsyringe records the token itself or `{ token, multiple }`.
  return Object.values(recorded)
    .map((value) =>
      typeof value === 'object' && value !== null && 'token' in value
        ? (value as { token: unknown }).token
        : value,
    )
    .filter((value): value is symbol => typeof value === 'symbol');
}

function dependenciesOf(service: ServiceDescriptor): symbol[] {
  return [...(service.useClass ? injectedTokens(service.useClass) : []), ...(service.inject ?? [])];
}

function nameOf(service: ServiceDescriptor): string {
  return service.useClass?.name ?? service.token.description ?? 'a service';
}

/**
 * Fails at startup when a service depends on a service of a narrower scope (a root service
 * asking for a session service would capture one session's state for every session).
 */
export function validateScopes(
  services: readonly ServiceDescriptor[],
  tokenScopes: ReadonlyMap<symbol, ServiceScope>,
): void {
  for (const service of services) {
    for (const dependency of dependenciesOf(service)) {
      const dependencyScope = tokenScopes.get(dependency);
      if (dependencyScope && SCOPE_RANK[dependencyScope] > SCOPE_RANK[service.scope]) {
        const name = nameOf(service);
        throw new QuiverError(
          'scope_violation',
          `${name} (${service.scope} scope) depends on ${dependency.description} (${dependencyScope} scope).`,
          {
            fix: `Register ${name} in the ${dependencyScope} scope, or pass the ${dependencyScope} value as a method argument instead of injecting it.`,
            details: { service: name, dependency: dependency.description },
          },
        );
      }
    }
  }
}

/**
 * Registers each service in `container` (one scope's container) so that it is built on first
 * use, once, from that scope's view of its dependencies; returns what ends the scope's services.
 */
export function registerScope(
  container: DependencyContainer,
  services: readonly ServiceDescriptor[],
): () => Promise<void> {
  const built: Array<() => void | Promise<void>> = [];
  for (const service of services) {
    let instance: { value: unknown } | undefined;
    const build = (): unknown => {
      // Resolved from the scope's own container, never the one asked: a personality service
      // reached through a session container still gets the personality's dependencies.
      const value = service.useClass
        ? container.resolve(service.useClass)
        : service.useFactory?.(...(service.inject ?? []).map((token) => container.resolve(token)));
      const dispose = service.dispose;
      if (dispose) built.push(() => dispose(value));
      return value;
    };
    container.register(service.token, {
      useFactory: () => {
        instance ??= { value: build() };
        return instance.value;
      },
    });
  }
  return async () => {
    for (const dispose of built.splice(0).reverse()) await dispose();
  };
}
