/** What `quiver init` writes: every key present (or shown commented out) with what it does. */
export const QUIVER_YAML_TEMPLATE = `# quiver.yaml: what the Quiver host loads. Personalities (personalities/*.yaml) decide
# what each session may see and run. Found from the current directory upward.

# Workspace root, relative to this file. File and shell tools stay inside it.
workspace: .

# Data directory (SQLite databases, spill files, saved permission grants, session logs),
# relative to the workspace. Add it to .gitignore.
dataDir: .quiver

# Third-party plugins to load, by npm package name (installed next to this file) or by path.
# First-party plugins (tools-terminal, tools-code, tools-kanban, tools-memory, mcp-bridge) are
# always available. Loading is not enabling: a personality's \`plugins\` list enables them.
plugins: []
#  - quiver-plugin-units
#  - ./plugins/my-plugin

# Settings handed to a plugin that requires \`config\`, by plugin id.
pluginConfig: {}

# MCP servers by name. stdio: command/args/env/cwd; HTTP: url/headers. Optional per server:
# connectTimeoutMs, callTimeoutMs, maxCallTimeoutMs, toolTimeouts (tool -> ms). A personality
# enables servers by name; a server starts when a session under such a personality first needs it.
mcpServers: {}
#  everything:
#    command: npx
#    args: ["-y", "@modelcontextprotocol/server-everything"]
#  github:
#    url: https://example.invalid/mcp
#    headers: { Authorization: "Bearer \${GITHUB_TOKEN}" }

# The personality sessions use when none is named: personalities/<name>.yaml.
defaultPersonality: default
`;

export const DEFAULT_PERSONALITY_TEMPLATE = `# A personality: which plugins, MCP servers and tools a session may use, and how calls are
# permitted. Check it with \`quiver personality check personalities/default.yaml\` and preview
# what the model sees with \`quiver tools\`.

# Stable id, shown in logs; memories and other personality-scoped data are keyed by it.
id: default

# What this personality is for.
description: Coding assistant with every first-party tool.

# Compose: inherit another personality (name or path); keys here win, a plain list replaces the
# inherited one, { add: [...] } / { remove: [...] } edit it; deny and ask rules always add up.
# extends: base

# Plugins enabled for this personality (deny by default: an unlisted plugin's tools are
# neither shown nor run).
plugins: [tools-terminal, tools-code, tools-kanban, tools-memory, mcp-bridge]

# Built-in tool names the model may see. Absent: every tool of the enabled plugins.
# [] : none at all (MCP tools only).
# toolset: [read_file, grep_search, edit_file, terminal]

# MCP servers (from quiver.yaml) enabled here, deny by default; per server you may narrow tools.
mcpServers: {}
#  everything: { includeTools: [echo, add] }
#  github: { excludeTools: [delete_repository] }

# Permission rules: Tool or Tool(specifier). Evaluated deny, then ask, then allow; anything
# unmatched is asked (and denied in headless sessions, with the rule that would allow it).
#   terminal(git status:*)  a command prefix followed by a word boundary; every subcommand of a
#                           chain, pipeline or bash -c must be allowed on its own
#   read_file(src/**)       a path glob, matched against the real path (symlinks resolved)
#   mcp__github             a whole MCP server; mcp__github__create_issue one of its tools
permissions:
  allow:
    - read_file
    - list_dir
    - file_search
    - grep_search
    - write_file
    - edit_file
    - multi_edit
    - apply_patch
    - tool_search
    - kanban_*
    - memory_*
    - terminal(git status:*)
    - terminal(git diff:*)
    - terminal(git log:*)
  ask: []
  deny:
    - read_file(.env)
    - read_file(**/.env)
    # A write to .git/config or a hook of any repository here runs code at the next git command.
    - write_file(**/.git)
    - write_file(**/.git/**)
    - write_file(.quiver/**)

# Custom agents a session may select (\`quiver tools --custom-agent reviewer\`).
agents: {}
#  reviewer:
#    description: Reads and comments, never edits.
#    tools: [read_file, grep_search, file_search, kanban_comment]

# Total characters of tool results per model turn, split between the calls of the turn.
budget:
  resultChars: 80000

# Deferred loading: above a threshold, MCP and external tools are hidden behind tool_search.
# enabled: auto (above maxTokens estimated tokens, or more than maxTools tools, for any model),
# true (above the thresholds, the model profile's when these are absent) or false.
deferLoading:
  enabled: auto
  maxTools: 40
  maxTokens: 12000

# Simple mode: only shell, read and edit tools.
simpleMode: false

# Per model-profile overrides, e.g. make GPT-family models use str_replace edits.
modelProfiles: {}
#  openai: { editStyle: str_replace }

# Shell sandbox (bubblewrap): auto (when installed), off, or required (fail without it).
sandbox: auto

# Environment variables granted to tools, by tool name or "*". Nothing else that looks like a
# secret reaches a child process.
secrets: {}
#  terminal: [NPM_TOKEN]
`;
