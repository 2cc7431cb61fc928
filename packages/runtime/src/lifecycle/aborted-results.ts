import { fail, type ToolFailure } from '@quiver/types';

/** A call the turn's abort reached before its tool ran. */
export function abortedBeforeStart(toolName: string, signal: AbortSignal): ToolFailure {
  const reason = reasonText(signal.reason);
  return fail('aborted', `${toolName} was aborted before it started${reason ? `: ${reason}` : ''}`);
}

/** A call the turn's abort answered while it was still under way. */
export function abortedMidCall(toolName: string, signal: AbortSignal): ToolFailure {
  const reason = reasonText(signal.reason);
  return fail('aborted', `Tool "${toolName}" was aborted before it completed${reason ? `: ${reason}` : ''}`);
}

function reasonText(reason: unknown): string {
  if (reason === undefined) return '';
  if (reason instanceof Error) return reason.name === 'AbortError' ? '' : reason.message;
  return String(reason);
}
