import {
  type ClientRelayHandle,
  type ElicitationOutcome,
  type RelayedRequest,
  renderRelayedQuestion,
  visibleText,
} from '@quiver/types';
import { terminalText } from '../output.js';
import { noPersonTerminal } from './person-terminal.js';

type Answer = string | number | boolean | string[];

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  default?: unknown;
}

const NO_TERMINAL = 'there is no terminal to ask on (stdin or stderr is not a TTY)';

/**
 * Asks a bridged server's question on the terminal, field by field, when stdin and stderr are
 * TTYs; refuses with the reason otherwise. Sampling is always refused: the terminal has no model.
 */
export function terminalClientRelay(): ClientRelayHandle {
  const noPerson = noPersonTerminal();
  const interactive = noPerson === undefined && process.stderr.isTTY === true;
  return {
    elicit: async (request, signal) =>
      interactive
        ? askOnTerminal(request, signal)
        : {
            action: 'refused',
            reason:
              noPerson === undefined || !process.stdin.isTTY
                ? NO_TERMINAL
                : `there is no person to ask: ${noPerson}`,
          },
    sample: async () => ({
      action: 'refused',
      reason:
        '`quiver call` has no model to sample from; sampling is relayed only to MCP clients of `quiver serve`',
    }),
  };
}

async function askOnTerminal(request: RelayedRequest, signal: AbortSignal): Promise<ElicitationOutcome> {
  const prompts = await import('@clack/prompts');
  const { params } = request;
  if (params.mode !== undefined && params.mode !== 'form')
    return {
      action: 'refused',
      reason: `the terminal answers form questions only, not "${String(params.mode)}"`,
    };
  // Rendered by the renderer every asking layer shares: the asker named, its text escaped, and
  // a question shaped like Quiver's own permission prompt refused.
  const question = renderRelayedQuestion(request);
  if (!question.ok) return { action: 'refused', reason: question.reason };
  const answer = await prompts.select({
    message: terminalText(`${question.message}\n  (while running ${request.toolName})`),
    options: [
      { value: 'accept', label: 'Answer' },
      { value: 'decline', label: 'Decline' },
    ],
    signal,
  });
  if (prompts.isCancel(answer)) return { action: 'cancel' };
  if (answer === 'decline') return { action: 'decline' };
  const schema = question.requestedSchema as {
    properties?: Record<string, FieldSchema>;
    required?: string[];
  };
  const content: Record<string, Answer> = {};
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(key) === true;
    const value = await askField(prompts, key, field, required, signal);
    if (value === CANCELLED) return { action: 'cancel' };
    if (value !== undefined) content[key] = value;
  }
  return { action: 'accept', content };
}

const CANCELLED = Symbol('cancelled');

async function askField(
  prompts: typeof import('@clack/prompts'),
  key: string,
  field: FieldSchema,
  required: boolean,
  signal: AbortSignal,
): Promise<Answer | undefined | typeof CANCELLED> {
  const label = visibleText(`${field.title ?? key}${field.description ? ` — ${field.description}` : ''}`);
  const choices =
    field.oneOf?.map((entry) => ({
      value: String(entry.const),
      label: visibleText(entry.title ?? String(entry.const)),
    })) ?? field.enum?.map((entry) => ({ value: String(entry), label: visibleText(String(entry)) }));
  if (choices !== undefined) {
    const picked = await prompts.select({
      message: label,
      options: choices,
      ...(field.default === undefined ? {} : { initialValue: String(field.default) }),
      signal,
    });
    return prompts.isCancel(picked) ? CANCELLED : String(picked);
  }
  if (field.type === 'boolean') {
    const confirmed = await prompts.confirm({
      message: label,
      ...(typeof field.default === 'boolean' ? { initialValue: field.default } : {}),
      signal,
    });
    return prompts.isCancel(confirmed) ? CANCELLED : confirmed;
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  const typed = await prompts.text({
    message: label,
    ...(field.default !== undefined
      ? { defaultValue: String(field.default), placeholder: String(field.default) }
      : {}),
    validate: (value) => {
      const text = value ?? '';
      if (text === '') return required && field.default === undefined ? 'An answer is required.' : undefined;
      if (!numeric) return undefined;
      const parsed = Number(text);
      if (!Number.isFinite(parsed) || (field.type === 'integer' && !Number.isInteger(parsed)))
        return `Enter ${field.type === 'integer' ? 'a whole number' : 'a number'}.`;
      return undefined;
    },
    signal,
  });
  if (prompts.isCancel(typed)) return CANCELLED;
  if (typed === '' || typed === undefined) return undefined;
  return numeric ? Number(typed) : typed;
}
