import { createHash } from 'node:crypto';
import type { ProviderFormat } from '../contracts.js';

/** Provider name rules; Gemini also requires a letter or `_` first. */
const VALID_NAME: Record<ProviderFormat, RegExp> = {
  anthropic: /^[a-zA-Z0-9_-]+$/,
  openai: /^[a-zA-Z0-9_-]+$/,
  gemini: /^[a-zA-Z_][a-zA-Z0-9_.:-]*$/,
  mcp: /^[a-zA-Z0-9_.-]+$/,
};

export const DEFAULT_TOOL_NAME_LIMIT: Record<ProviderFormat, number> = {
  anthropic: 64,
  openai: 64,
  gemini: 64,
  mcp: 128,
};

const HASH_LENGTH = 8;

/**
 * The name to send a provider: unchanged when valid and short enough, otherwise the readable
 * start of the name plus a hash of the whole, so the same tool always gets the same name.
 */
export function providerToolName(
  name: string,
  format: ProviderFormat,
  limit = DEFAULT_TOOL_NAME_LIMIT[format],
): string {
  if (name.length <= limit && VALID_NAME[format].test(name)) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_LENGTH);
  let readable = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (format === 'gemini' && !/^[a-zA-Z_]/.test(readable)) readable = `_${readable}`;
  return `${readable.slice(0, Math.max(1, limit - HASH_LENGTH - 1))}_${hash}`;
}

/** The pool name for a name the provider sent back (names that were not shortened map to themselves). */
export function resolveProviderName(name: string, nameMap: Readonly<Record<string, string>>): string {
  return Object.hasOwn(nameMap, name) ? (nameMap[name] as string) : name;
}
