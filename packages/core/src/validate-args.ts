import type { z } from 'zod';

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
  let parsed: z.ZodSafeParseResult<unknown>;
  try {
    parsed = schema.safeParse(args);
  } catch {
    parsed = await schema.safeParseAsync(args);
  }
  if (parsed.success) return { valid: true, args: parsed.data };
  return {
    valid: false,
    message: `Invalid arguments for "${toolName}": ${formatIssues(parsed.error.issues)}`,
  };
}
