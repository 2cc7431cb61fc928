import type { QuiverEvent } from '@quiver/types';

/**
 * What the session log keeps of a call's arguments: `full` (the default) or `shapes`, the keys
 * and value types without any value, for personalities whose tools receive secrets.
 */
export type ArgumentRecording = 'full' | 'shapes';

const MAX_DEPTH = 8;
const MAX_KEYS = 100;
const MAX_ELEMENT_SHAPES = 10;

/**
 * The shape of a value: `"string"`, `"number"`, `"boolean"`, `"null"`; an object's keys with the
 * shapes of their values; an array as the distinct shapes of its elements. No value survives.
 */
export function argumentShape(value: unknown, depth = 0): unknown {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? 'array' : 'object';
  if (Array.isArray(value)) {
    const shapes = new Map<string, unknown>();
    for (const element of value) {
      const shape = argumentShape(element, depth + 1);
      shapes.set(JSON.stringify(shape), shape);
      if (shapes.size >= MAX_ELEMENT_SHAPES) break;
    }
    return [...shapes.values()];
  }
  const entries = Object.entries(value);
  const shape: Record<string, unknown> = Object.fromEntries(
    entries.slice(0, MAX_KEYS).map(([key, inner]) => [key, argumentShape(inner, depth + 1)]),
  );
  if (entries.length > MAX_KEYS) shape['…'] = `${entries.length - MAX_KEYS} more keys`;
  return shape;
}

const REFUSALS = new Set(['not_permitted', 'input_invalid']);

/** Stands in for text made from argument values (a shell command, a path, a reason quoting them). */
const NOT_RECORDED = '(argument values not recorded)';

/**
 * The event as the session log records it. With `shapes`, the events that carry a call's
 * arguments keep only their shapes; permission events lose the subjects, reasons and granted
 * rules made from argument values (a shell command, a path), and so do Quiver's refusals
 * (`not_permitted`, `input_invalid`); rules from the configuration stay. A tool's own results
 * are recorded as usual. The live event stream is not touched.
 */
export function recordedEvent(event: QuiverEvent, recording: ArgumentRecording | undefined): QuiverEvent {
  if (recording !== 'shapes') return event;
  switch (event.type) {
    case 'tool.user_requested':
    case 'tool.execution_start':
      return { ...event, arguments: argumentShape(event.arguments) };
    case 'permission.requested': {
      const { suggestedRule: _suggested, subjects, ...decision } = event.decision;
      return {
        ...event,
        decision: {
          ...decision,
          reason: NOT_RECORDED,
          ...(subjects === undefined
            ? {}
            : {
                subjects: subjects.map(({ behavior, rule }) => ({
                  subject: NOT_RECORDED,
                  behavior,
                  ...(rule === undefined ? {} : { rule }),
                  reason: NOT_RECORDED,
                })),
              }),
        },
      };
    }
    case 'permission.completed': {
      const { rule, ...completed } = event;
      // A rule the person granted was suggested from the arguments; a configured one was not.
      return { ...completed, reason: NOT_RECORDED, ...(event.scope === 'rule' && rule ? { rule } : {}) };
    }
    case 'tool.execution_complete':
      // Quiver's own refusals quote the arguments (the command that needs approval); a tool's
      // own result is recorded as usual.
      return REFUSALS.has(event.result.code ?? '')
        ? { ...event, result: { ...event.result, error: `${event.result.code}: ${NOT_RECORDED}` } }
        : event;
    default:
      return event;
  }
}
