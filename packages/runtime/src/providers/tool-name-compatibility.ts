/**
 * Claude Code tool names mapped to the Quiver tools that do the same, best first: the first one
 * present answers a model's call by that name; every one listed answers an allowlist, a custom
 * agent's `tools` or a deny rule. A tool's own `aliases` are added to these at lookup time.
 */
export const TOOL_NAME_COMPATIBILITY: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit_file', 'multi_edit', 'apply_patch'],
  MultiEdit: ['multi_edit'],
  Grep: ['grep_search'],
  Glob: ['file_search', 'list_dir'],
  LS: ['list_dir'],
  Bash: ['terminal', 'terminal_start', 'terminal_read', 'terminal_write', 'terminal_stop', 'terminal_list'],
  BashOutput: ['terminal_read'],
  KillShell: ['terminal_stop'],
  ToolSearch: ['tool_search'],
};

/**
 * Claude Code tool names Quiver ships nothing for: they name whatever tool declares them in its
 * `aliases`, and are reported as having no counterpart when none does.
 */
export const CLAUDE_CODE_NAMES_WITHOUT_COUNTERPART: readonly string[] = [
  'Agent',
  'Task',
  'TaskOutput',
  'TaskStop',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'SendMessage',
  'TeamCreate',
  'TeamDelete',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'EnterWorktree',
  'ExitWorktree',
  'WebFetch',
  'WebSearch',
  'NotebookEdit',
  'NotebookRead',
  'TodoWrite',
  'Skill',
  'SlashCommand',
  'StructuredOutput',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'LSP',
];

/** True for a name Claude Code gives one of its tools. */
export function isClaudeCodeToolName(name: string): boolean {
  return Object.hasOwn(TOOL_NAME_COMPATIBILITY, name) || CLAUDE_CODE_NAMES_WITHOUT_COUNTERPART.includes(name);
}

/** The Quiver tools a Claude Code name maps to (not counting aliases), best first. */
export function compatibleToolNames(name: string): readonly string[] {
  return Object.hasOwn(TOOL_NAME_COMPATIBILITY, name) ? (TOOL_NAME_COMPATIBILITY[name] ?? []) : [];
}
