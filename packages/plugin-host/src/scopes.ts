import { QuiverError } from '@quiver/types';
import type { ServiceScope } from './tokens.js';

const SCOPE_RANK: Record<ServiceScope, number> = { root: 0, personality: 1, session: 2 };

// tsyringe records `@inject(token)` parameters under this metadata key.
const INJECTION_TOKENS_KEY = 'injectionTokens';

export interface ServiceDescriptor {
  token: symbol;
  scope: ServiceScope;
  /** A class decorated with @injectable() whose parameters use @inject(token). */
  useClass?: new (
    ...args: any[]
  ) => unknown;
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

/**
 * Fails at startup when a service depends on a service of a narrower scope (a root service
 * asking for a session service would capture one session's state for every session).
 */
export function validateScopes(
  services: readonly ServiceDescriptor[],
  tokenScopes: ReadonlyMap<symbol, ServiceScope>,
): void {
  for (const service of services) {
    if (!service.useClass) continue;
    for (const dependency of injectedTokens(service.useClass)) {
      const dependencyScope = tokenScopes.get(dependency);
      if (dependencyScope && SCOPE_RANK[dependencyScope] > SCOPE_RANK[service.scope]) {
        throw new QuiverError(
          'scope_violation',
          `${service.useClass.name} (${service.scope} scope) depends on ${dependency.description} (${dependencyScope} scope).`,
          {
            fix: `Register ${service.useClass.name} in the ${dependencyScope} scope, or pass the ${dependencyScope} value as a method argument instead of injecting it.`,
            details: { service: service.useClass.name, dependency: dependency.description },
          },
        );
      }
    }
  }
}
