import type { z } from 'zod';

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The closest candidate within a small edit distance, for "did you mean" hints. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(input.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = levenshtein(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

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

/** One line per issue: `key.path: message`, with a did-you-mean for unknown keys. */
export function formatZodIssues(error: z.ZodError, schema: z.ZodType): string {
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
          return `  - ${issue.path.length ? `${where}.` : ''}${key}: unknown key.${hint}`;
        });
      }
      return [`  - ${where}: ${issue.message}`];
    })
    .join('\n');
}
