function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `child` over `base`: maps merge key by key (recursively), anything else, lists included,
 * is replaced by the child's value when the child sets it.
 */
export function mergePersonalityData(
  base: Record<string, unknown>,
  child: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(child)) {
    if (value === undefined) continue;
    const existing = merged[key];
    const next =
      isPlainObject(existing) && isPlainObject(value) ? mergePersonalityData(existing, value) : value;
    // defineProperty, so that a map key such as `__proto__` stays data and never becomes a prototype.
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}
