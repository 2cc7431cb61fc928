import { isDeepStrictEqual } from 'node:util';
import type { ChangeLog } from './configuration-change.js';
import type { PersonalitySettings } from './project-configuration.js';

type Gate = PersonalitySettings['mcpServers'][string];

const SANDBOX_STRENGTH = { off: 0, auto: 1, required: 2 } as const;

function isSubset(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.every((entry) => outer.includes(entry));
}

/** True when `current` shows no tool that `trusted` hides. */
function gateNarrows(trusted: Gate, current: Gate): boolean {
  const before = trusted === true ? {} : trusted;
  const after = current === true ? {} : current;
  const includeNarrows =
    before.includeTools === undefined ||
    (after.includeTools !== undefined && isSubset(after.includeTools, before.includeTools));
  return includeNarrows && isSubset(before.excludeTools ?? [], after.excludeTools ?? []);
}

/** How serve names the server's prompts: naming grants no access, so a change applies without trust. */
function promptNamesOf(gate: Gate): string | undefined {
  return gate === true ? undefined : gate.promptNames;
}

/**
 * The personality that may apply now, given the one last trusted and the one found: every
 * narrowing difference applies, every widening one keeps the trusted value and is logged.
 */
export function comparePersonality(
  trusted: PersonalitySettings,
  current: PersonalitySettings,
  log: ChangeLog,
): PersonalitySettings {
  const effective = structuredClone(current);
  effective.plugins = log.list('plugins', trusted.plugins, current.plugins, 'widening');
  effective.permissions = {
    allow: log.list('permissions.allow', trusted.permissions.allow, current.permissions.allow, 'widening'),
    ask: log.list('permissions.ask', trusted.permissions.ask, current.permissions.ask, 'narrowing'),
    deny: log.list('permissions.deny', trusted.permissions.deny, current.permissions.deny, 'narrowing'),
  };

  const gates: PersonalitySettings['mcpServers'] = {};
  for (const [server, gate] of Object.entries(current.mcpServers)) {
    const before = Object.hasOwn(trusted.mcpServers, server) ? trusted.mcpServers[server] : undefined;
    if (before === undefined) log.add('widening', `mcpServers.${server}`, 'enables the MCP server');
    else if (isDeepStrictEqual(before, gate)) gates[server] = gate;
    else if (gateNarrows(before, gate)) {
      const promptNamesOnly = gateNarrows(gate, before) && promptNamesOf(before) !== promptNamesOf(gate);
      log.add(
        'narrowing',
        `mcpServers.${server}`,
        promptNamesOnly ? 'changes how serve names its prompts' : 'shows fewer of its tools',
      );
      gates[server] = gate;
    } else {
      log.add('widening', `mcpServers.${server}`, 'shows more of its tools');
      gates[server] = structuredClone(before);
    }
  }
  for (const server of Object.keys(trusted.mcpServers)) {
    if (!Object.hasOwn(current.mcpServers, server))
      log.add('narrowing', `mcpServers.${server}`, 'no longer enables the MCP server');
  }
  effective.mcpServers = gates;

  if (trusted.toolset === undefined && current.toolset !== undefined) {
    log.add('narrowing', 'toolset', `limits the built-in tools to ${current.toolset.length}`);
  } else if (trusted.toolset !== undefined && current.toolset === undefined) {
    log.add('widening', 'toolset', 'no longer limits the built-in tools');
    effective.toolset = [...trusted.toolset];
  } else if (trusted.toolset !== undefined && current.toolset !== undefined) {
    effective.toolset = log.list('toolset', trusted.toolset, current.toolset, 'widening');
  }

  if (SANDBOX_STRENGTH[current.sandbox] < SANDBOX_STRENGTH[trusted.sandbox]) {
    log.add('widening', 'sandbox', `weakens the sandbox from ${trusted.sandbox} to ${current.sandbox}`);
    effective.sandbox = trusted.sandbox;
  } else if (current.sandbox !== trusted.sandbox) {
    log.add('narrowing', 'sandbox', `strengthens the sandbox from ${trusted.sandbox} to ${current.sandbox}`);
  }

  // A socket reached from the sandbox acts outside it: each new one is a widening.
  effective.unixSockets = log.list(
    'unixSockets',
    trusted.unixSockets ?? [],
    current.unixSockets ?? [],
    'widening',
  );

  const secrets: Record<string, string[]> = {};
  for (const [tool, names] of Object.entries(current.secrets)) {
    const before = Object.hasOwn(trusted.secrets, tool) ? (trusted.secrets[tool] ?? []) : [];
    const granted = log.list(`secrets.${tool}`, before, names, 'widening');
    if (granted.length > 0) secrets[tool] = granted;
  }
  for (const [tool, names] of Object.entries(trusted.secrets)) {
    if (!Object.hasOwn(current.secrets, tool)) log.list(`secrets.${tool}`, names, [], 'widening');
  }
  effective.secrets = secrets;

  // Simple mode hides tools; turning it off shows them again.
  effective.simpleMode = log.value(
    'simpleMode',
    trusted.simpleMode,
    current.simpleMode,
    current.simpleMode ? 'narrowing' : 'widening',
  );
  // REPL mode takes the primitives off the list; turning it off lists them again.
  effective.repl = log.value('repl', trusted.repl, current.repl, current.repl ? 'narrowing' : 'widening');
  // Which plugin serves a capability (e.g. the process sandbox) is a choice of how tools run.
  effective.backends = log.value('backends', trusted.backends ?? {}, current.backends ?? {}, 'widening');
  // Recording argument values where the trusted personality kept only their shapes records more.
  // Trust records from before the setting existed recorded everything.
  effective.log = log.value(
    'log',
    trusted.log ?? { arguments: 'full' },
    current.log,
    current.log?.arguments === 'shapes' ? 'narrowing' : 'widening',
  );
  // Plugin settings decide what a plugin's tools reach: any change of them widens.
  effective.pluginConfig = log.value(
    'pluginConfig',
    trusted.pluginConfig ?? {},
    current.pluginConfig,
    'widening',
  );
  const handled = new Set<string>([
    'pluginConfig',
    'log',
    'id',
    'plugins',
    'permissions',
    'mcpServers',
    'toolset',
    'sandbox',
    'unixSockets',
    'secrets',
    'simpleMode',
    'repl',
    'backends',
  ]);
  for (const key of new Set([...Object.keys(trusted), ...Object.keys(current)])) {
    if (handled.has(key)) continue;
    const field = key as keyof PersonalitySettings;
    log.value(key, trusted[field], current[field], 'narrowing');
  }
  return effective;
}
