import { type Personality, resolvePersonality } from '../personality/index.js';
import { type ProjectTrust, trustedPersonality } from '../trust/project-trust.js';

export interface StartingPersonalityOptions {
  searchDirs: readonly string[];
  embedded: Record<string, unknown>;
  trust: ProjectTrust | undefined;
}

/**
 * The personality the host starts with, as trust allows, read once when first asked: plugins
 * load once per host and take their settings from it. Undefined when it does not resolve (the
 * session that names it reports why).
 */
export function startingPersonality(
  reference: string,
  options: StartingPersonalityOptions,
): () => Personality | undefined {
  let resolved: { personality: Personality | undefined } | undefined;
  return () => {
    if (resolved) return resolved.personality;
    try {
      const found = resolvePersonality(reference, options);
      resolved = { personality: options.trust ? trustedPersonality(options.trust, reference, found) : found };
    } catch {
      resolved = { personality: undefined };
    }
    return resolved.personality;
  };
}
