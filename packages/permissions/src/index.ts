// Public surface of @quiver/permissions.
export { parsePermissionRule, ruleMatchesToolName } from './rule.js';
export type { PermissionRule } from './rule.js';
