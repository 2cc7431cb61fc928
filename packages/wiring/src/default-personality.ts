/** The personality used when no quiver.yaml names one: every first-party tool, safe permissions. */
export const FIRST_PARTY_PLUGIN_IDS = [
  'tools-terminal',
  'tools-code',
  'tools-kanban',
  'tools-memory',
  'mcp-bridge',
] as const;

export const DEFAULT_PERSONALITY = {
  id: 'default',
  description:
    'Every first-party tool. Reads, searches, edits inside the workspace, boards and memories are allowed; shell commands other than a few read-only ones are asked.',
  plugins: [...FIRST_PARTY_PLUGIN_IDS],
  permissions: {
    allow: [
      'read_file',
      'list_dir',
      'file_search',
      'grep_search',
      'write_file',
      'edit_file',
      'multi_edit',
      'apply_patch',
      'tool_search',
      'kanban_*',
      'memory_*',
      'terminal(git status:*)',
      'terminal(git diff:*)',
      'terminal(git log:*)',
      'terminal(ls:*)',
      'terminal(pwd)',
    ],
    // Write denies reach every write tool. An edited .git/config or hook (of any nested repository)
    // runs code at the next `git status`; Quiver's own data and configuration are protected by the
    // host whatever these rules say, and denied here too for hosts that pass no protected paths.
    deny: [
      'read_file(.env)',
      'read_file(**/.env)',
      'write_file(**/.git)',
      'write_file(**/.git/**)',
      'write_file(.quiver/**)',
    ],
  },
} as const;
