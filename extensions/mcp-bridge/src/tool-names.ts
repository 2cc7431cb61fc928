import { createHash } from 'node:crypto';

const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

function sanitize(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/g, '_');
}

function hashed(server: string, originalName: string, hashLength: number): string {
  const fullName = `mcp__${server}__${originalName}`;
  const digest = createHash('sha256').update(fullName).digest('hex').slice(0, hashLength);
  const readable = `mcp__${server}__${sanitize(originalName)}`.slice(
    0,
    MAX_TOOL_NAME_LENGTH - hashLength - 1,
  );
  return `${readable}_${digest}`;
}

/**
 * Quiver names for one server's tools: `mcp__<server>__<tool>`, sanitized to `[a-zA-Z0-9_-]`,
 * at most 64 characters. Names that are too long or that collide after sanitizing get a readable
 * prefix plus 8 hex characters of the sha256 of the full original name. The result depends only
 * on the set of names, never on their order, so a re-listing keeps every name.
 */
export function assignToolNames(server: string, originalNames: readonly string[]): Map<string, string> {
  const unique = [...new Set(originalNames)].sort();
  const byCandidate = new Map<string, string[]>();
  for (const original of unique) {
    const candidate = `mcp__${server}__${sanitize(original)}`;
    const group = byCandidate.get(candidate) ?? [];
    group.push(original);
    byCandidate.set(candidate, group);
  }
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const needHash: string[] = [];
  for (const [candidate, group] of byCandidate) {
    for (const original of group) {
      const keepsPlainName =
        candidate.length <= MAX_TOOL_NAME_LENGTH && (group.length === 1 || sanitize(original) === original);
      if (keepsPlainName) {
        names.set(original, candidate);
        taken.add(candidate);
      } else {
        needHash.push(original);
      }
    }
  }
  for (const original of needHash) {
    let hashLength = HASH_LENGTH;
    let name = hashed(server, original, hashLength);
    while (taken.has(name) && hashLength < 32) {
      hashLength += 8;
      name = hashed(server, original, hashLength);
    }
    names.set(original, name);
    taken.add(name);
  }
  return names;
}
