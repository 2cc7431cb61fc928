import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { quiver, tempDirs } from './helpers.js';

const dirs = tempDirs('quiver-schemas-');
afterEach(dirs.cleanup);

const schemaOf = (line: string) =>
  JSON.parse(readFileSync(line.replace('# yaml-language-server: $schema=', ''), 'utf8'));

describe('JSON Schemas for editors', () => {
  it('are referenced by the files quiver init writes, accept them, and flag a misspelt key', async () => {
    const dir = dirs.make();
    const init = await quiver(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const file of ['quiver.yaml', 'personalities/default.yaml']) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      const first = text.split('\n')[0] as string;
      expect(first).toMatch(/^# yaml-language-server: \$schema=\/.*\.schema\.json$/);
      const validate = ajv.compile(schemaOf(first));
      const data = parse(text) as Record<string, unknown>;
      expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...data, defaultPersonalty: 'x' })).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({
        keyword: 'additionalProperties',
        params: { additionalProperty: 'defaultPersonalty' },
      });
    }
  });
});
