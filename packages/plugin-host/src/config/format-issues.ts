import { didYouMean } from '@quiver/core';
import type { z } from 'zod';

export { didYouMean };

function keysAt(schema: z.ZodType, pathParts: readonly PropertyKey[]): string[] {
  let current: any = schema;
  for (const part of pathParts) {
    while (current?.def?.innerType) current = current.def.innerType;
    const shape = current?.def?.shape ?? current?.shape;
    if (shape && typeof part === 'string' && part in shape) current = shape[part];
    else if (current?.def?.valueType) current = current.def.valueType;
    else if (current?.def?.element) current = current.def.element;
    else return [];
  }
  while (current?.def?.innerType) current = current.def.innerType;
  const shape = current?.def?.shape ?? current?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * One line per issue: `key.path: message`, with a did-you-mean for unknown keys; with `at`, each
 * line starts with where the key is written (`file:line:column: `).
 */
export function formatZodIssues(
  error: z.ZodError,
  schema: z.ZodType,
  at?: (keyPath: readonly PropertyKey[]) => string | undefined,
): string {
  const prefix = (keyPath: readonly PropertyKey[]): string => {
    const location = at?.(keyPath);
    return location ? `${location}: ` : '';
  };
  return error.issues
    .flatMap((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '(root)';
      if (issue.code === 'unrecognized_keys') {
        const allowed = keysAt(schema, issue.path);
        return issue.keys.map((key) => {
          const suggestion = didYouMean(key, allowed);
          const hint = suggestion
            ? ` Did you mean "${suggestion}"?`
            : allowed.length
              ? ` Allowed keys: ${allowed.join(', ')}.`
              : '';
          return `  - ${prefix([...issue.path, key])}${issue.path.length ? `${where}.` : ''}${key}: unknown key.${hint}`;
        });
      }
      return [`  - ${prefix(issue.path)}${where}: ${issue.message}`];
    })
    .join('\n');
}
