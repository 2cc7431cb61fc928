import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always hash the same. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
