import { QuiverError } from '@quiver/types';

/**
 * A `permissionResolver` must be an object with `resolve(prompt, signal)`. JavaScript callers
 * reach for a bare function (or an object without `resolve`); without this check every ask would
 * fail later, at the first call that needs an answer.
 */
export function checkPermissionResolver(resolver: unknown): void {
  if (resolver === undefined) return;
  const given =
    typeof resolver === 'function'
      ? 'a function'
      : resolver === null || typeof resolver !== 'object'
        ? `${resolver === null ? 'null' : typeof resolver}`
        : typeof (resolver as { resolve?: unknown }).resolve !== 'function'
          ? 'an object without a resolve method'
          : undefined;
  if (given === undefined) return;
  throw new QuiverError(
    'usage',
    `permissionResolver must be an object with a resolve(prompt, signal) method that returns the answer; it is ${given}.`,
    {
      fix:
        typeof resolver === 'function'
          ? 'Wrap the function: permissionResolver: { resolve: (prompt, signal) => yourFunction(prompt, signal) }.'
          : 'Pass { resolve: async (prompt, signal) => ({ behavior: "allow", scope: "once" }) or ({ behavior: "deny" }) }, or leave permissionResolver out so that every ask is denied.',
    },
  );
}
