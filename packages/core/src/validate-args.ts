import type { z } from 'zod';
import { unknownArgumentsProblem } from './unknown-arguments.js';

export type ArgsValidation = { valid: true; args: unknown } | { valid: false; message: string };

/** Every issue as `path: message`, the root shown as `(root)`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path =
        issue.path.length === 0 ? '(root)' : issue.path.map((segment) => String(segment)).join('.');
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** Parses synchronously, and only falls back to the async parser for schemas that need it. */
export async function validateArgs(
  schema: z.ZodType,
  args: unknown,
  toolName: string,
): Promise<ArgsValidation> {
  return validateArgsNow(schema, args, toolName);
}

/**
 * `validateArgs`, answered at once when the schema parses synchronously (nearly every schema),
 * and as a promise only for one that needs the async parser: a caller that checks for a promise
 * does not wait a turn of the event loop for what is already known.
 */
export function validateArgsNow(
  schema: z.ZodType,
  args: unknown,
  toolName: string,
): ArgsValidation | Promise<ArgsValidation> {
  let parsed: z.ZodSafeParseResult<unknown>;
  try {
    parsed = schema.safeParse(args);
  } catch {
    return schema.safeParseAsync(args).then((result) => judged(schema, args, toolName, result));
  }
  return judged(schema, args, toolName, parsed);
}

function judged(
  schema: z.ZodType,
  args: unknown,
  toolName: string,
  parsed: z.ZodSafeParseResult<unknown>,
): ArgsValidation {
  const unknownKeys = unknownArgumentsProblem(schema, args, toolName);
  if (parsed.success && unknownKeys === undefined) return { valid: true, args: parsed.data };
  // A strict schema reports the same keys again, without the hints.
  const issues = parsed.success
    ? []
    : parsed.error.issues.filter(
        (issue) => unknownKeys === undefined || issue.code !== 'unrecognized_keys' || issue.path.length > 0,
      );
  const problems = [unknownKeys, issues.length > 0 ? formatIssues(issues) : undefined];
  return {
    valid: false,
    message: `Invalid arguments for "${toolName}": ${problems.filter((problem) => problem !== undefined).join('; ')}`,
  };
}
