import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';

/** The top-level keys a closed input schema declares, in declaration order. */
interface ClosedKeys {
  readonly keys: readonly string[];
  readonly known: ReadonlySet<string>;
}

/**
 * What a tool's input schema says about keys it does not declare; `null` (no rule) means open: the
 * schema passes them through (loose, catchall), or its shape cannot be read (lazy, preprocess,
 * custom), so they are the tool's business. A discriminated union checks the option the
 * discriminator picks; other unions accept a key that any option declares.
 */
interface KeyRule extends ClosedKeys {
  readonly discriminator?: { readonly key: string; readonly options: ReadonlyMap<unknown, ClosedKeys> };
}

interface ZodInternals {
  type: string;
  shape?: Record<string, unknown>;
  catchall?: { _zod: { def: { type: string } } };
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: readonly z.ZodType[];
  discriminator?: string;
  left?: z.ZodType;
  right?: z.ZodType;
}

/** Schemas whose input is their inner schema's input (a JSON Schema without a different shape). */
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

const rules = new WeakMap<z.ZodType, KeyRule | null>();

function closed(keys: Iterable<string>): ClosedKeys {
  const known = new Set(keys);
  return { keys: [...known], known };
}

function propValues(option: z.ZodType, key: string): ReadonlySet<unknown> | undefined {
  return (option._zod as { propValues?: Record<string, ReadonlySet<unknown>> }).propValues?.[key];
}

function unionRule(options: readonly z.ZodType[], discriminator: string | undefined): KeyRule | null {
  const optionRules: KeyRule[] = [];
  for (const option of options) {
    const rule = keyRuleOf(option);
    if (rule === null) return null;
    optionRules.push(rule);
  }
  const union: KeyRule = closed(optionRules.flatMap((rule) => rule.keys));
  if (discriminator === undefined) return union;
  const byValue = new Map<unknown, ClosedKeys>();
  options.forEach((option, index) => {
    for (const value of propValues(option, discriminator) ?? []) byValue.set(value, optionRules[index]!);
  });
  return { ...union, discriminator: { key: discriminator, options: byValue } };
}

function deriveRule(schema: z.ZodType): KeyRule | null {
  const def = schema._zod.def as unknown as ZodInternals;
  switch (def.type) {
    case 'object':
      // `catchall` absent is strip mode, `never` is strict: both keep undeclared keys from the tool.
      if (def.catchall !== undefined && def.catchall._zod.def.type !== 'never') return null;
      return closed(Object.keys(def.shape ?? {}));
    case 'nullable':
      return def.innerType === undefined ? null : keyRuleOf(def.innerType);
    case 'pipe':
      return def.in === undefined ? null : keyRuleOf(def.in);
    case 'union':
      return unionRule(def.options ?? [], def.discriminator);
    case 'intersection': {
      if (def.left === undefined || def.right === undefined) return null;
      const left = keyRuleOf(def.left);
      const right = keyRuleOf(def.right);
      return left === null || right === null ? null : closed([...left.keys, ...right.keys]);
    }
    default:
      return WRAPPERS.has(def.type) && def.innerType !== undefined ? keyRuleOf(def.innerType) : null;
  }
}

function keyRuleOf(schema: z.ZodType): KeyRule | null {
  let rule = rules.get(schema);
  if (rule === undefined) {
    rule = deriveRule(schema);
    rules.set(schema, rule);
  }
  return rule;
}

/** Whether a tool with this input schema refuses top-level keys it does not declare. */
export function isClosedObjectSchema(schema: z.ZodType): boolean {
  let def = schema._zod.def as unknown as ZodInternals;
  while (def.type !== 'object') {
    const inner = def.type === 'pipe' ? def.in : WRAPPERS.has(def.type) ? def.innerType : undefined;
    if (inner === undefined) return false;
    def = inner._zod.def as unknown as ZodInternals;
  }
  return keyRuleOf(schema) !== null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeUnknown(key: string, candidates: readonly string[]): string {
  const suggestion = didYouMean(key, candidates);
  return suggestion === undefined
    ? JSON.stringify(key)
    : `${JSON.stringify(key)} (did you mean "${suggestion}"?)`;
}

/**
 * Names each top-level key of `args` that the tool's closed input schema does not declare, with
 * the closest declared key and the keys the tool takes; `undefined` when there is none. Zod's
 * strip mode would otherwise drop a misspelt optional argument and run the call without it.
 */
export function unknownArgumentsProblem(
  schema: z.ZodType,
  args: unknown,
  toolName: string,
): string | undefined {
  if (!isRecord(args)) return undefined;
  const rule = keyRuleOf(schema);
  if (rule === null) return undefined;
  const picked = rule.discriminator?.options.get(args[rule.discriminator.key]) ?? rule;
  let unknown: string[] | undefined;
  for (const key in args) {
    if (Object.hasOwn(args, key) && !picked.known.has(key)) (unknown ??= []).push(key);
  }
  if (unknown === undefined) return undefined;
  const named = unknown.map((key) => describeUnknown(key, picked.keys)).join(', ');
  const takes =
    picked.keys.length === 0
      ? `"${toolName}" takes no arguments`
      : `"${toolName}" takes: ${picked.keys.join(', ')}`;
  return `unknown argument${unknown.length === 1 ? '' : 's'} ${named}; ${takes}`;
}
