import { ok, type ToolResult } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultToolRegistry, deriveJsonSchema } from '../src/index.js';
import { echoTool, executeContext } from './support.js';

const ctx = executeContext();

/** Runs one call of a tool with this input schema; the tool answers with the arguments it got. */
async function callWith(input: z.ZodType, args: unknown): Promise<ToolResult> {
  const registry = new DefaultToolRegistry();
  registry.register(echoTool('read_file', { input, execute: (received) => ok(JSON.stringify(received)) }));
  const [result] = await registry.executeParallel([{ name: 'read_file', args }], ctx);
  return result!;
}

const readFileInput = z.object({
  path: z.string(),
  offset: z.number().optional(),
  limit: z.number().optional(),
});

describe('arguments a tool does not declare', () => {
  it('refuses a misspelt optional argument instead of running the call without it', async () => {
    const result = await callWith(readFileInput, { path: 'a.txt', ofset: 100 });
    expect(result).toEqual({
      ok: false,
      code: 'input_invalid',
      error:
        'Invalid arguments for "read_file": unknown argument "ofset" (did you mean "offset"?); "read_file" takes: path, offset, limit',
    });
  });

  it('names every unknown key, suggesting only where a declared key is close', async () => {
    const result = await callWith(readFileInput, { path: 'a.txt', limt: 5, colour: 'red' });
    expect(result.ok === false && result.error).toBe(
      'Invalid arguments for "read_file": unknown arguments "limt" (did you mean "limit"?), "colour"; "read_file" takes: path, offset, limit',
    );
  });

  it('reports unknown keys together with the schema issues of the declared ones', async () => {
    const result = await callWith(readFileInput, { path: 7, ofset: 1 });
    expect(result.ok === false && result.error).toMatch(
      /^Invalid arguments for "read_file": unknown argument "ofset" \(did you mean "offset"\?\); "read_file" takes: path, offset, limit; path: .*expected string/,
    );
  });

  it('says so when a tool takes no arguments at all', async () => {
    const result = await callWith(z.object({}), { verbose: true });
    expect(result.ok === false && result.error).toBe(
      'Invalid arguments for "read_file": unknown argument "verbose"; "read_file" takes no arguments',
    );
  });

  it('reports the unknown keys of a strict schema once, with the hint', async () => {
    const result = await callWith(readFileInput.strict(), { path: 'a', ofset: 1 });
    expect(result.ok === false && result.error).toBe(
      'Invalid arguments for "read_file": unknown argument "ofset" (did you mean "offset"?); "read_file" takes: path, offset, limit',
    );
  });

  it('passes undeclared keys through to tools whose schema is loose or has a catchall', async () => {
    for (const input of [
      z.looseObject({ path: z.string() }),
      z.object({ path: z.string() }).catchall(z.number()),
    ]) {
      const result = await callWith(input, { path: 'a', extra: 1 });
      expect(result).toEqual({ ok: true, value: '{"path":"a","extra":1}' });
    }
  });

  it('checks a discriminated union against the option its discriminator picks', async () => {
    const input = z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('line'), line: z.number() }),
      z.object({ mode: z.literal('range'), start: z.number(), end: z.number() }),
    ]);
    const result = await callWith(input, { mode: 'line', line: 3, end: 9 });
    expect(result.ok === false && result.error).toBe(
      'Invalid arguments for "read_file": unknown argument "end"; "read_file" takes: mode, line',
    );
    expect(await callWith(input, { mode: 'range', start: 1, end: 2 })).toMatchObject({ ok: true });
  });

  it('accepts in a plain union or an intersection any key that one of its objects declares', async () => {
    const union = z.union([z.object({ path: z.string() }), z.object({ url: z.string() })]);
    expect(await callWith(union, { url: 'https://example.com' })).toMatchObject({ ok: true });
    expect((await callWith(union, { path: 'a', pth: 'b' })).ok === false).toBe(true);
    const both = z.intersection(z.object({ path: z.string() }), z.object({ limit: z.number() }));
    expect(await callWith(both, { path: 'a', limit: 1 })).toMatchObject({ ok: true });
    const refused = await callWith(both, { path: 'a', limit: 1, lmit: 2 });
    expect(refused.ok === false && refused.error).toContain('"lmit" (did you mean "limit"?)');
  });

  it('looks through defaults, refinements and transforms to the object a model fills in', async () => {
    const input = readFileInput
      .refine((args) => args.path !== '')
      .transform((args) => ({ ...args, seen: true }));
    const result = await callWith(input, { path: 'a', offst: 1 });
    expect(result.ok === false && result.error).toContain('"offst" (did you mean "offset"?)');
    expect(deriveJsonSchema(input)).toMatchObject({ type: 'object', additionalProperties: false });
  });
});

describe('the JSON Schema a model sees', () => {
  it('says additionalProperties: false for a closed object and leaves open ones open', () => {
    expect(deriveJsonSchema(readFileInput)).toEqual({
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(deriveJsonSchema(z.looseObject({ path: z.string() }))).toMatchObject({ additionalProperties: {} });
  });

  it('derives the same schema every time, so definitions stay cache-stable', () => {
    expect(JSON.stringify(deriveJsonSchema(readFileInput))).toBe(
      JSON.stringify(deriveJsonSchema(readFileInput)),
    );
  });
});
