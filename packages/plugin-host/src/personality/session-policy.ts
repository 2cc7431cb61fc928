import type { McpServerGate, SessionPolicy } from '@quiver/runtime';
import type { Personality } from './personality-schema.js';

/** The plain data the runtime needs from a personality; `sandbox` and `secrets` stay with the host. */
export function toSessionPolicy(personality: Personality): SessionPolicy {
  const mcpServers: Record<string, McpServerGate> = {};
  for (const [server, gate] of Object.entries(personality.mcpServers)) {
    mcpServers[server] = gate === true ? {} : { ...gate };
  }
  const policy: SessionPolicy = {
    personalityId: personality.id,
    plugins: [...personality.plugins],
    mcpServers,
    permissions: {
      allow: [...personality.permissions.allow],
      ask: [...personality.permissions.ask],
      deny: [...personality.permissions.deny],
    },
    agents: structuredClone(personality.agents),
    budget: { resultChars: personality.budget.resultChars },
    deferLoading: { ...personality.deferLoading },
    simpleMode: personality.simpleMode,
    repl: personality.repl,
    modelProfiles: structuredClone(personality.modelProfiles),
    logArguments: personality.log.arguments,
  };
  // Absent and [] mean different things (every built-in vs none), so absent stays absent.
  if (personality.toolset !== undefined) policy.toolset = [...personality.toolset];
  return policy;
}
