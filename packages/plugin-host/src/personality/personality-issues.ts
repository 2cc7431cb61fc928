import type { z } from 'zod';
import { didYouMean } from '../config/format-issues.js';

export interface PersonalityIssue {
  /** Dotted key path, e.g. `permissions.allow.0`; `(root)` for the file itself. */
  keyPath: string;
  /** The same path as segments, to find where it is written. */
  path: Array<string | number>;
  /** The line and column it is written at, when read from a file. */
  line?: number;
  column?: number;
  message: string;
  /** For an unknown key: the closest allowed key, if one is close, and every key allowed there. */
  unknownKey?: { keyPath: string; suggestion?: string; allowed: string[] };
}

type SchemaNode = { def?: Record<string, unknown> } | undefined;

function unwrap(node: SchemaNode): SchemaNode {
  let current = node;
  while (current?.def?.innerType !== undefined) current = current.def.innerType as SchemaNode;
  return current;
}

/** The keys an object at `path` may have, following records, arrays and object branches of unions. */
export function allowedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current = unwrap(schema as unknown as SchemaNode);
  for (const segment of path) {
    current = childOf(current, segment);
    if (current === undefined) return [];
  }
  return Object.keys(objectShape(current) ?? {});
}

function objectShape(node: SchemaNode): Record<string, SchemaNode> | undefined {
  const unwrapped = unwrap(node);
  const def = unwrapped?.def;
  if (def?.type === 'object') return def.shape as Record<string, SchemaNode>;
  if (def?.type === 'union') {
    for (const option of def.options as SchemaNode[]) {
      const shape = objectShape(option);
      if (shape !== undefined) return shape;
    }
  }
  return undefined;
}

function childOf(node: SchemaNode, segment: PropertyKey): SchemaNode {
  const def = unwrap(node)?.def;
  if (def === undefined) return undefined;
  if (def.type === 'record') return unwrap(def.valueType as SchemaNode);
  if (def.type === 'array') return unwrap(def.element as SchemaNode);
  // A list written as itself or as `{ add, remove }` edits: the first option the segment leads into.
  if (def.type === 'union')
    for (const option of def.options as SchemaNode[]) {
      const child = childOf(option, segment);
      if (child !== undefined) return child;
    }
  const shape = objectShape(node);
  return typeof segment === 'string' && shape !== undefined ? unwrap(shape[segment]) : undefined;
}

function segment(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

export function keyPathOf(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map((segment) => String(segment)).join('.');
}

/** Every zod issue as a key path and a message; unknown keys get a did-you-mean over the keys allowed there. */
export function personalityIssues(error: z.ZodError, schema: z.ZodType): PersonalityIssue[] {
  return error.issues.flatMap((issue): PersonalityIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeysAt(schema, issue.path);
      return issue.keys.map((key) => {
        const suggestion = didYouMean(key, allowed);
        const hint = suggestion
          ? ` Did you mean "${suggestion}"?`
          : allowed.length > 0
            ? ` Allowed keys here: ${allowed.join(', ')}.`
            : '';
        const keyPath = keyPathOf([...issue.path, key]);
        return {
          keyPath,
          path: [...issue.path, key].map(segment),
          message: `unknown key "${key}".${hint}`,
          unknownKey: { keyPath, allowed, ...(suggestion ? { suggestion } : {}) },
        };
      });
    }
    return [{ keyPath: keyPathOf(issue.path), path: issue.path.map(segment), message: issue.message }];
  });
}
