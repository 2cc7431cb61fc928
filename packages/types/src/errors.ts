/**
 * One catalog of stable error codes. Tool results (`{ ok: false, code }`) and thrown
 * `QuiverError`s both draw from it, so callers can branch on codes instead of messages.
 */
export const ERROR_CODES = {
  // tool-call outcomes
  input_invalid: 'The arguments did not match the tool input schema.',
  not_available: 'The tool is unknown, unavailable, or lacks a capability backend.',
  not_permitted: 'A gate, permission rule or hook refused the call.',
  execution_failed: 'The tool ran and failed.',
  aborted: 'The call was aborted.',
  timeout: 'The call ran past its timeout.',
  stale_write: 'The target changed since it was last read.',
  path_outside_workspace: 'A path resolves outside the workspace roots.',
  not_found: 'The target does not exist.',
  conflict: 'The operation conflicts with the current state.',
  limit_exceeded: 'A size or count limit was exceeded.',
  interrupted: 'The call started but its process ended before it completed.',
  storage_unavailable:
    'The connection to the storage database was lost or could not be made; the statements in flight failed and may be retried.',
  storage_damaged:
    'A store (a SQLite file or its identity record) is unreadable, damaged, or empty after it held data.',
  client_capability_missing:
    'The tool needs its caller to answer something (elicitation, sampling, roots) the caller did not declare it can.',
  // host and configuration
  plugin_api_version: 'The plugin declares an apiVersion this host does not support.',
  plugin_duplicate_tool: 'Two plugins register a tool with the same name.',
  plugin_missing_dependency: 'A plugin requires a service or plugin that is not present.',
  plugin_bad_manifest: 'A plugin manifest or package.json#quiver entry is invalid.',
  plugin_register_failed: 'A plugin threw during register().',
  plugin_not_found: 'A plugin named in the configuration could not be resolved.',
  code_pin_changed:
    'Code a person trusted (a plugin, an MCP server, a file either one loads) moved or changed since it was pinned.',
  duplicate_tool: 'A tool with this name is already registered.',
  duplicate_reducer: 'A reducer for this tool is already registered.',
  backend_conflict: 'Two capability backends serve one capability and the personality names neither.',
  config_invalid: 'A configuration or personality file is invalid.',
  config_not_found: 'A configuration or personality file could not be found.',
  scope_violation: 'A service depends on a service from a narrower scope.',
  assembly_failed: 'The tool pool could not be assembled.',
  usage: 'The command was called with wrong arguments.',
  internal: 'An unexpected internal error.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes a tool call may complete with when it fails. */
export type ToolErrorCode =
  | 'input_invalid'
  | 'not_available'
  | 'not_permitted'
  | 'execution_failed'
  | 'aborted'
  | 'timeout'
  | 'stale_write'
  | 'path_outside_workspace'
  | 'not_found'
  | 'conflict'
  | 'limit_exceeded'
  | 'interrupted'
  | 'storage_unavailable'
  | 'storage_damaged'
  | 'client_capability_missing';

export interface QuiverErrorOptions {
  /** How the user fixes it, in one sentence. Shown after the message. */
  fix?: string;
  /** Machine-readable details (paths, names, zod paths). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error base class. Only programmer and configuration errors are thrown. */
export class QuiverError extends Error {
  readonly code: ErrorCode;
  readonly fix: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: QuiverErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'QuiverError';
    this.code = code;
    this.fix = options.fix;
    this.details = options.details ?? {};
  }

  /** `[code] message — fix` for terminals and logs. */
  describe(): string {
    return `[${this.code}] ${this.message}${this.fix ? `\n  fix: ${this.fix}` : ''}`;
  }
}

export function isQuiverError(value: unknown): value is QuiverError {
  return (
    value instanceof QuiverError ||
    (value instanceof Error && value.name === 'QuiverError' && 'code' in value)
  );
}

/** What went wrong, as one line of text: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
