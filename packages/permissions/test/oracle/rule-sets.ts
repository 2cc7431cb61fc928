import type { PermissionRules } from '@quiver/types';

/** A personality's permission rules the oracle judges the analyzer under. */
export interface OracleRuleSet {
  name: string;
  rules: PermissionRules;
}

/** The allow-list an attacker met: a few read-only commands and `npm run test`, with rm denied. */
export const ATTACKER_RULES: OracleRuleSet = {
  name: 'attacker',
  rules: {
    allow: ['terminal(git status:*)', 'terminal(npm run test:*)', 'terminal(ls:*)', 'terminal(echo:*)'],
    deny: ['terminal(rm:*)'],
  },
};

/** Everything allowed but one program: the deny must see every program that really runs. */
export const BLANKET_RULES: OracleRuleSet = {
  name: 'blanket',
  rules: { allow: ['terminal'], deny: ['terminal(touch:*)'] },
};

/** The embedded default personality's rules, as @quiver/wiring exports them. */
export function defaultRuleSet(personality: { permissions: PermissionRules }): OracleRuleSet {
  return { name: 'default', rules: personality.permissions };
}

/**
 * Where the embedded default personality is defined, relative to this directory. It is read from
 * source, not imported: @quiver/wiring depends on this package, and the file imports nothing.
 */
export const DEFAULT_PERSONALITY_SOURCE = '../../../wiring/src/default-personality.ts';

/** The must-allow corpus's rules (test/fixtures/must-allow.json): what a typical agent personality allows. */
export function mustAllowRuleSet(corpus: { rules: PermissionRules }): OracleRuleSet {
  return { name: 'must-allow', rules: corpus.rules };
}
