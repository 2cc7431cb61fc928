// What the console's server sends its page and takes back: types only, no imports, so the page
// (console-page/, built for the browser) checks against the very types the server uses.

/** A session as the page lists it. */
export interface ConsoleSession {
  id: string;
  transport: string;
  client?: string;
  /** The signed-in caller (a token's subject) of an authenticated serve. */
  caller?: string;
  personality: string;
  agent: string;
  trust?: string;
  startedAt: number;
  closedAt?: number;
}

/** A call as the page shows it, every text escaped by the one renderer's rules. */
export interface ConsoleCall {
  callId: string;
  sessionId: string;
  toolName: string;
  arguments: string;
  mcpServer?: string;
  status: 'asking' | 'running' | 'ok' | 'error' | 'denied';
  decision?: { behavior: string; scope?: string; rule?: string; reason: string };
  progress?: { progress: number; total?: number; message?: string };
  startedAt: number;
  durationMs?: number;
  resultChars?: number;
  resultTokens?: number;
  error?: string;
}

/** A permission ask waiting for the person: the renderer's question, as every prompt shows it. */
export interface ConsoleAsk {
  id: string;
  callId: string;
  sessionId?: string;
  toolName: string;
  /** `renderPermissionQuestion(prompt).text`, line by line. */
  lines: string[];
  headline: string;
  alwaysRule?: string;
  diff?: string[];
  choices: ReadonlyArray<{ value: string; label: string }>;
  expiresAt: number;
}

export type ConsoleMessage =
  | { type: 'session'; session: ConsoleSession }
  | { type: 'call'; call: ConsoleCall }
  | { type: 'ask'; ask: ConsoleAsk }
  | { type: 'ask_done'; id: string; outcome: string }
  | { type: 'servers'; servers: unknown[] };

export interface ConsoleSnapshot {
  sessions: ConsoleSession[];
  calls: ConsoleCall[];
  asks: ConsoleAsk[];
  servers: unknown[];
}

/** What the page may answer. */
export type ConsoleAnswer =
  | { decision: 'once' | 'session' | 'project' }
  | { decision: 'deny'; message?: string };

/** What the console's trust page shows: what `quiver trust` shows a person, and the hash it is bound to. */
export interface ConsoleTrust {
  workspace: string;
  configFile: string | null;
  /** `trusted`, or why the project waits (untrusted, changed…), as the trust record stands. */
  state: string;
  /** The record's file, when trust is kept in files; null where it cannot be recorded. */
  recordFile: string | null;
  /** The configuration in words, as `quiver trust` prints it. */
  description: string[];
  /** Each configuration file and its SHA-256, as the page showed them. */
  files: Array<{ path: string; sha256: string }>;
  /** Plugins and stdio servers with the code the record pins (where it resolved, how many files). */
  code: Array<{ kind: string; name: string; location: string | null; files: number }>;
  changes: Array<{ kind: string; where: string; description: string }>;
  warnings: string[];
  /** Why the page cannot trust it (nothing to trust, or nowhere to record it); absent when it can. */
  cannotTrust?: string;
  /** What a "Trust" answer sends back: the hash of everything above and of the code pinned. */
  hash: string;
}

/** A changed MCP tool definition as the page shows it: every line of the change, escaped. */
export interface ConsoleReview {
  server: string;
  tool: string;
  /** What an approval pins: the page sends it back, so only the definition it showed is approved. */
  hash: string;
  pinnedAt: string;
  changedAt: string;
  diff: string[];
}
