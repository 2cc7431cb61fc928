/** How much of a call's arguments a permission prompt shows. */
const MAX_PROMPT_ARGUMENT_CHARS = 400;

/** Keys whose values are never shown: a prompt may be on a shared screen or in a recording. */
const SECRET_KEY = /token|key|password|passwd|secret|authorization|credential|cookie/i;

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? '***' : masked(inner)]),
  );
}

/**
 * The arguments of a call as a person deciding on it sees them: JSON with the values of
 * secret-looking keys masked, cut at a bound with a marker saying how much was left out.
 */
export function describeArguments(args: unknown): string {
  if (args === undefined || (typeof args === 'object' && args !== null && Object.keys(args).length === 0))
    return '';
  const text = JSON.stringify(masked(args)) ?? '';
  if (text.length <= MAX_PROMPT_ARGUMENT_CHARS) return text;
  return `${text.slice(0, MAX_PROMPT_ARGUMENT_CHARS)}… (${text.length - MAX_PROMPT_ARGUMENT_CHARS} more characters)`;
}
