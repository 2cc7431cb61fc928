import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateArgs, validateArgsNow } from '../src/index.js';

describe('validating arguments without waiting for what is already known', () => {
  const plain = z.object({ path: z.string(), limit: z.number().optional() });
  const asyncRefined = z
    .object({ name: z.string() })
    .refine(async (value) => value.name !== 'taken', { message: 'the name is taken' });

  it('answers at once, as validateArgs does, for a schema that parses synchronously', async () => {
    for (const args of [{ path: 'a.ts' }, { path: 1 }, { path: 'a.ts', limt: 3 }, undefined]) {
      const now = validateArgsNow(plain, args, 'read_file');
      expect(now).not.toBeInstanceOf(Promise);
      expect(now).toEqual(await validateArgs(plain, args, 'read_file'));
    }
    expect(validateArgsNow(plain, { path: 'a.ts', limt: 3 }, 'read_file')).toMatchObject({
      valid: false,
      message: expect.stringContaining('limt'),
    });
  });

  it('answers with a promise only for a schema that needs the async parser', async () => {
    const pending = validateArgsNow(asyncRefined, { name: 'taken' }, 'create');
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual(await validateArgs(asyncRefined, { name: 'taken' }, 'create'));
    expect(await pending).toMatchObject({
      valid: false,
      message: expect.stringContaining('the name is taken'),
    });
    expect(await validateArgsNow(asyncRefined, { name: 'free' }, 'create')).toEqual({
      valid: true,
      args: { name: 'free' },
    });
  });
});
