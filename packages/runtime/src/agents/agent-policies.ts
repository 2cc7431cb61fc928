import type { SessionAgentKind } from '../contracts.js';

/** Tools no agent below the main session gets: they spawn agents or talk to the user. */
export const ALL_AGENT_DISALLOWED_TOOLS: readonly string[] = [
  'agent',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
];

/** A selected custom agent also may not manage teams. */
export const CUSTOM_AGENT_DISALLOWED_TOOLS: readonly string[] = [
  ...ALL_AGENT_DISALLOWED_TOOLS,
  'team_create',
  'team_delete',
];

/** Background (async) agents work unattended: files, shell, search and the web only. */
export const ASYNC_AGENT_ALLOWED_TOOLS: readonly string[] = [
  'read_file',
  'write_file',
  'edit_file',
  'multi_edit',
  'apply_patch',
  'terminal',
  'grep',
  'glob',
  'web_fetch',
  'web_search',
  'todo_write',
  'notebook_edit',
  'skill',
  'tool_search',
];

/** What an in-process teammate adds to the async set: the shared task list and messages. */
export const TEAMMATE_ADDED_TOOLS: readonly string[] = [
  'task_create',
  'task_get',
  'task_list',
  'task_update',
  'send_message',
];

/** A coordinator only delegates: it spawns agents, messages them and stops them. */
export const COORDINATOR_ALLOWED_TOOLS: readonly string[] = [
  'agent',
  'send_message',
  'task_stop',
  'task_list',
  'tool_search',
];

/** MCP tools a coordinator keeps, matched by the end of their name. */
export const COORDINATOR_MCP_TOOL_SUFFIXES: readonly string[] = [
  '__subscribe_pr_activity',
  '__unsubscribe_pr_activity',
];

/** Support tools a custom agent with a named tool list always keeps. */
export const CUSTOM_AGENT_MANDATORY_TOOLS: readonly string[] = ['tool_search'];

export interface AgentToolPolicy {
  /** Only these built-in and external tools (names or `*` globs); undefined = every tool. */
  allow?: readonly string[];
  /** Removed even when allowed. */
  deny: readonly string[];
  /** MCP tools pass agent filters unless the policy names the suffixes it keeps. */
  mcpSuffixes?: readonly string[];
  /** Whether the session option defaultAgentExcludedTools applies. */
  appliesDefaultAgentExcludes: boolean;
  /** The setting named when this policy removes a tool. */
  ruleName: string;
}

/** Agent contexts as data: assembly reads this table; tools never ask who is calling. */
export const AGENT_TOOL_POLICIES: Readonly<Record<SessionAgentKind, AgentToolPolicy>> = {
  main: { deny: [], appliesDefaultAgentExcludes: false, ruleName: 'main session' },
  subagent: {
    deny: ALL_AGENT_DISALLOWED_TOOLS,
    appliesDefaultAgentExcludes: true,
    ruleName: 'ALL_AGENT_DISALLOWED_TOOLS',
  },
  async: {
    allow: ASYNC_AGENT_ALLOWED_TOOLS,
    deny: ALL_AGENT_DISALLOWED_TOOLS,
    appliesDefaultAgentExcludes: true,
    ruleName: 'ASYNC_AGENT_ALLOWED_TOOLS',
  },
  teammate: {
    allow: [...ASYNC_AGENT_ALLOWED_TOOLS, ...TEAMMATE_ADDED_TOOLS],
    deny: ALL_AGENT_DISALLOWED_TOOLS,
    appliesDefaultAgentExcludes: true,
    ruleName: 'ASYNC_AGENT_ALLOWED_TOOLS + TEAMMATE_ADDED_TOOLS',
  },
  coordinator: {
    allow: COORDINATOR_ALLOWED_TOOLS,
    deny: [],
    mcpSuffixes: COORDINATOR_MCP_TOOL_SUFFIXES,
    appliesDefaultAgentExcludes: false,
    ruleName: 'COORDINATOR_ALLOWED_TOOLS',
  },
};
