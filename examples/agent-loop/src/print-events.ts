import type { QuiverEvent } from '@quiver/types';

function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One console line per lifecycle event; events a UI would not show return undefined. */
export function formatEvent(event: QuiverEvent): string | undefined {
  switch (event.type) {
    case 'tool.user_requested':
      return `  [event] tool.user_requested ${event.toolName} ${clip(JSON.stringify(event.arguments))}`;
    case 'tool.execution_start':
      return `  [event] tool.execution_start ${event.toolName}`;
    case 'tool.execution_partial_result':
      return `  [event] tool.execution_partial_result ${clip(event.text)}`;
    case 'tool.execution_progress':
      return `  [event] tool.execution_progress ${event.progress}${event.total === undefined ? '' : `/${event.total}`}`;
    case 'tool.execution_complete':
      return `  [event] tool.execution_complete ${event.toolName} ${event.success ? 'ok' : `failed (${event.result.code})`} in ${Math.round(event.durationMs)} ms`;
    case 'permission.requested':
      return `  [event] permission.requested ${event.toolName}: ${event.decision.reason}`;
    case 'permission.completed':
      return `  [event] permission.completed ${event.toolName}: ${event.behavior}${event.scope ? ` (${event.scope})` : ''}`;
    case 'hook.completed':
      return `  [event] hook.completed ${event.hook} ${event.outcome}`;
    case 'session.tools_updated':
      return `  [event] session.tools_updated ${event.count} tools (+${event.added.length} −${event.removed.length})`;
    case 'session.warning':
      return `  [event] session.warning ${event.message}`;
    case 'abort':
      return `  [event] abort ${event.reason}`;
    default:
      return undefined;
  }
}
