import { createTestHost, expectPluginContract, type TestHost } from '@quiver/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { unitsPlugin } from '../src/index.js';

describe('quiver-plugin-units', () => {
  let host: TestHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('meets the plugin contract', async () => {
    await expectPluginContract(unitsPlugin);
  });

  it('converts miles to kilometres through the real host', async () => {
    host = await createTestHost({ plugins: [unitsPlugin] });
    const result = await host.callTool('convert_units', { value: 26.2, from: 'mi', to: 'km' });
    expect(result).toMatchObject({
      ok: true,
      value: '26.2 mi = 42.1648 km',
      structured: { unit: 'km', dimension: 'length' },
    });
  });

  it('converts temperatures, which are not simple factors', async () => {
    host = await createTestHost({ plugins: [unitsPlugin] });
    const result = await host.callTool('convert_units', { value: 98.6, from: 'F', to: 'C' });
    expect(result.ok && result.value).toBe('98.6 F = 37 C');
  });

  it('rounds to the precision setting unless the call asks for its own', async () => {
    host = await createTestHost({
      plugins: [unitsPlugin],
      config: { pluginConfig: { units: { precision: 3 } } },
    });
    const [configured, asked] = await Promise.all([
      host.callTool('convert_units', { value: 26.2, from: 'mi', to: 'km' }),
      host.callTool('convert_units', { value: 26.2, from: 'mi', to: 'km', precision: 5 }),
    ]);
    expect(configured.ok && configured.value).toBe('26.2 mi = 42.2 km');
    expect(asked.ok && asked.value).toBe('26.2 mi = 42.165 km');
  });

  it('explains which units exist when given an unknown one', async () => {
    host = await createTestHost({ plugins: [unitsPlugin] });
    const result = await host.callTool('convert_units', { value: 1, from: 'furlong', to: 'm' });
    expect(result).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(!result.ok && result.error).toContain('Unknown unit "furlong"');
  });

  it('refuses to convert between dimensions', async () => {
    host = await createTestHost({ plugins: [unitsPlugin] });
    const result = await host.callTool('convert_units', { value: 1, from: 'kg', to: 'm' });
    expect(!result.ok && result.error).toContain('Cannot convert mass (kg) to length (m)');
  });

  it('rejects arguments that do not match the schema before running', async () => {
    host = await createTestHost({ plugins: [unitsPlugin] });
    const result = await host.callTool('convert_units', { value: 'ten', from: 'm', to: 'km' });
    expect(result).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(!result.ok && result.error).toContain('value:');
  });

  it('shows the tool to the model with a JSON Schema', async () => {
    host = await createTestHost({ plugins: [unitsPlugin] });
    const definition = host.definitions().find((d) => d.name === 'convert_units');
    expect(definition?.parameters).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['value', 'from', 'to']),
    });
  });
});
