// Public surface of quiver-plugin-units: a Quiver plugin that converts units, offline.
import { definePlugin, defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { convert } from './units.js';

/** The plugin's settings: quiver.yaml `pluginConfig.units`, overlaid by a personality's `{ id: units, config }`. */
const unitsSettings = z.object({
  precision: z
    .number()
    .int()
    .min(0)
    .max(15)
    .default(6)
    .describe('Significant digits when a call does not ask for a number of its own (default 6).'),
});

type UnitsSettings = z.output<typeof unitsSettings>;

/** Reads `settings` when a call runs: the host shows each personality's sessions their own. */
function convertUnitsToolWith(settings: Readonly<UnitsSettings>) {
  return defineTool({
    name: 'convert_units',
    title: 'Convert units',
    description:
      'Convert a number between units of the same dimension: length (m, km, mi, ft, in…), mass (kg, g, lb, oz…), volume (l, ml, gal…), time (s, min, h, d…), data (B, KB, MiB…), speed (m/s, km/h, mph, kn) and temperature (C, F, K). Exact arithmetic, no network.',
    input: z.object({
      value: z.number().describe('The number to convert.'),
      from: z.string().min(1).describe('Unit of the value, e.g. "mi" or "F".'),
      to: z.string().min(1).describe('Unit to convert to, e.g. "km" or "C".'),
      precision: z
        .number()
        .int()
        .min(0)
        .max(15)
        .optional()
        .describe(
          "Significant digits in the answer (default: the plugin's `precision` setting, 6 unless configured).",
        ),
    }),
    capabilities: {},
    annotations: { readOnly: true, idempotent: true, openWorld: false },
    execute({ value, from, to, precision = settings.precision }) {
      const result = convert(value, from, to);
      if (!result.ok) return fail('input_invalid', result.error);
      const rounded = Number(result.value.toPrecision(Math.max(1, precision)));
      return ok(`${value} ${from} = ${rounded} ${to}`, {
        structured: { value: rounded, unit: to, dimension: result.dimension },
      });
    },
  });
}

/** `convert_units` with the default settings, for use without the plugin. */
export const convertUnitsTool = convertUnitsToolWith({ precision: 6 });

export const unitsPlugin = definePlugin({
  id: 'units',
  apiVersion: 1,
  version: '0.1.0',
  description: 'Unit conversion (length, mass, volume, time, data, speed, temperature).',
  requires: ['config'],
  config: unitsSettings,
  register(ctx) {
    ctx.registerTool(convertUnitsToolWith(ctx.services.config));
  },
});

export default unitsPlugin;
export { convert } from './units.js';
