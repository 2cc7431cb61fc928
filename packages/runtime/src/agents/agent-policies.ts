import type { SessionAgentKind } from '../contracts.js';

/*
 * The agent sets are written in Claude Code's tool names and read through the name resolver, so
 * `Glob` keeps file_search and list_dir, `Bash` the terminal and its background tools, and any
 * plugin tool that declares the name in `aliases` (`WebFetch`, `TodoWrite`, …) qualifies. The
 * snake_case names keep tools written before aliases existed.
 */

/** Tools no agent below the main session gets: they spawn agents, talk to the user or leave plan mode. */
export const ALL_AGENT_DISALLOWED_TOOLS: readonly string[] = [
  'Agent',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'TaskOutput',
  'TaskStop',
  'agent',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
  'task_output',
  'task_stop',
  'task_complete',
];

/** A selected custom agent also may not manage teams. */
export const CUSTOM_AGENT_DISALLOWED_TOOLS: readonly string[] = [
  ...ALL_AGENT_DISALLOWED_TOOLS,
  'TeamCreate',
  'TeamDelete',
  'team_create',
  'team_delete',
];

/** Background (async) agents work unattended: files, shell, search, the web, notebooks, todos, skills. */
export const ASYNC_AGENT_ALLOWED_TOOLS: readonly string[] = [
  'Read',
  'Grep',
  'Glob',
  'Bash',
  'Edit',
  'Write',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'NotebookEdit',
  'TodoWrite',
  'Skill',
  'StructuredOutput',
  'structured_output',
  'EnterWorktree',
  'ExitWorktree',
  'worktree_create',
  'worktree_remove',
  'web_fetch',
  'web_search',
  'notebook_edit',
  'todo_write',
  'skill',
];

/**
 * What an in-process teammate adds to the async set: the shared task list, messages, and the
 * agent tool (a teammate may start sub-agents of its own, which get the sub-agent set).
 */
export const TEAMMATE_ADDED_TOOLS: readonly string[] = [
  'Agent',
  'agent',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'SendMessage',
  'task_create',
  'task_get',
  'task_list',
  'task_update',
  'send_message',
];

/** A coordinator only delegates: it starts agents, messages and stops them, and returns output. */
export const COORDINATOR_ALLOWED_TOOLS: readonly string[] = [
  'Agent',
  'TaskStop',
  'SendMessage',
  'StructuredOutput',
  'agent',
  'task_stop',
  'send_message',
  'structured_output',
];

/** MCP tools a coordinator keeps, matched by the end of their name. */
export const COORDINATOR_MCP_TOOL_SUFFIXES: readonly string[] = ['subscribe_pr_activity'];

/** Support tools a custom agent with a named tool list always keeps. */
export const CUSTOM_AGENT_MANDATORY_TOOLS: readonly string[] = ['tool_search'];

export interface AgentToolPolicy {
  /** Only these built-in and external tools (any name the resolver reads); undefined = every tool. */
  allow?: readonly string[];
  /** Removed even when allowed. */
  deny: readonly string[];
  /** MCP tools pass agent filters unless the policy names the suffixes it keeps. */
  mcpSuffixes?: readonly string[];
  /**
   * Whether the session option defaultAgentExcludedTools applies: only to the default agent (a
   * main session with no custom agent selected), as in Copilot CLI, so sub-agents keep the tools.
   */
  appliesDefaultAgentExcludes: boolean;
  /** The setting named when this policy removes a tool. */
  ruleName: string;
}

/** Agent contexts as data: assembly reads this table; tools never ask who is calling. */
export const AGENT_TOOL_POLICIES: Readonly<Record<SessionAgentKind, AgentToolPolicy>> = {
  main: { deny: [], appliesDefaultAgentExcludes: true, ruleName: 'main session' },
  subagent: {
    deny: ALL_AGENT_DISALLOWED_TOOLS,
    appliesDefaultAgentExcludes: false,
    ruleName: 'ALL_AGENT_DISALLOWED_TOOLS',
  },
  async: {
    allow: ASYNC_AGENT_ALLOWED_TOOLS,
    deny: ALL_AGENT_DISALLOWED_TOOLS,
    appliesDefaultAgentExcludes: false,
    ruleName: 'ASYNC_AGENT_ALLOWED_TOOLS',
  },
  teammate: {
    allow: [...ASYNC_AGENT_ALLOWED_TOOLS, ...TEAMMATE_ADDED_TOOLS],
    deny: ALL_AGENT_DISALLOWED_TOOLS.filter((name) => !TEAMMATE_ADDED_TOOLS.includes(name)),
    appliesDefaultAgentExcludes: false,
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
