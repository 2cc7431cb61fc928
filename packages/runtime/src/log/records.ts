import type { ToolErrorCode } from '@quiver/types';

export type CallStatus = 'running' | 'ok' | 'error' | 'interrupted';

/** One tool call as the log remembers it. */
export interface CallRecord {
  sessionId: string;
  callId: string;
  toolName: string;
  args: unknown;
  turn: number | undefined;
  /** ms since epoch; undefined for calls refused before they started. */
  startedAt: number | undefined;
  completedAt: number | undefined;
  status: CallStatus;
  code: ToolErrorCode | undefined;
  durationMs: number | undefined;
  structured: unknown;
}

export interface SessionRecordInput {
  id: string;
  personalityId?: string;
  agent?: string;
  /** Who called: the signed-in caller (a token's subject) of an authenticated `quiver serve`. */
  caller?: string;
  /** ms since epoch; default now. */
  startedAt?: number;
}

export interface SessionSummary {
  id: string;
  personalityId: string | undefined;
  agent: string | undefined;
  /** The signed-in caller the session ran for (a token's subject); undefined when nobody signed in. */
  caller: string | undefined;
  startedAt: number;
  endedAt: number | undefined;
  calls: number;
  failedCalls: number;
  interruptedCalls: number;
  /** Latest call start or completion, or the session start. */
  lastActivityAt: number;
  /** Events the log could not record, as its gap records count them (0 when none were lost). */
  lostEvents: number;
  /** Estimated tokens of every completed call's result, summed: what the tools fed the model. */
  resultTokens: number;
  /**
   * Estimated tokens of the tool definitions as last assembled (what each model request carries
   * now); undefined when the log has no definitions of the session.
   */
  definitionTokens: number | undefined;
}

export interface FileEditMetric {
  path: string;
  linesAdded: number;
  linesRemoved: number;
  edits: number;
}

export interface FileEditMetrics {
  filesChanged: number;
  linesAdded: number;
  linesRemoved: number;
  files: FileEditMetric[];
}
