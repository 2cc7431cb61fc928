/** Units by dimension, as factors to the dimension's base unit (temperature is affine, handled apart). */
export const UNITS: Record<string, Record<string, number>> = {
  length: {
    m: 1,
    km: 1000,
    cm: 0.01,
    mm: 0.001,
    mi: 1609.344,
    yd: 0.9144,
    ft: 0.3048,
    in: 0.0254,
    nmi: 1852,
  },
  mass: { kg: 1, g: 0.001, mg: 1e-6, t: 1000, lb: 0.45359237, oz: 0.028349523125 },
  volume: {
    l: 1,
    ml: 0.001,
    m3: 1000,
    gal: 3.785411784,
    qt: 0.946352946,
    cup: 0.2365882365,
    floz: 0.0295735295625,
  },
  time: { s: 1, ms: 0.001, min: 60, h: 3600, d: 86400, wk: 604800 },
  data: {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KiB: 1024,
    MiB: 1024 ** 2,
    GiB: 1024 ** 3,
    TiB: 1024 ** 4,
  },
  speed: { 'm/s': 1, 'km/h': 1 / 3.6, mph: 0.44704, kn: 1852 / 3600 },
};

const TEMPERATURE = ['C', 'F', 'K'] as const;
type TemperatureUnit = (typeof TEMPERATURE)[number];

function toKelvin(value: number, unit: TemperatureUnit): number {
  if (unit === 'C') return value + 273.15;
  if (unit === 'F') return ((value - 32) * 5) / 9 + 273.15;
  return value;
}

function fromKelvin(value: number, unit: TemperatureUnit): number {
  if (unit === 'C') return value - 273.15;
  if (unit === 'F') return ((value - 273.15) * 9) / 5 + 32;
  return value;
}

export function dimensionOf(unit: string): string | undefined {
  if ((TEMPERATURE as readonly string[]).includes(unit)) return 'temperature';
  return Object.keys(UNITS).find((dimension) => unit in UNITS[dimension]!);
}

export function knownUnits(): string {
  return [
    ...Object.entries(UNITS).map(([dimension, units]) => `${dimension}: ${Object.keys(units).join(', ')}`),
    `temperature: ${TEMPERATURE.join(', ')}`,
  ].join('; ');
}

export type Conversion = { ok: true; value: number; dimension: string } | { ok: false; error: string };

export function convert(value: number, from: string, to: string): Conversion {
  const fromDimension = dimensionOf(from);
  const toDimension = dimensionOf(to);
  if (!fromDimension) return { ok: false, error: `Unknown unit "${from}". Known units — ${knownUnits()}.` };
  if (!toDimension) return { ok: false, error: `Unknown unit "${to}". Known units — ${knownUnits()}.` };
  if (fromDimension !== toDimension) {
    return {
      ok: false,
      error: `Cannot convert ${fromDimension} (${from}) to ${toDimension} (${to}): pick two units of the same dimension.`,
    };
  }
  if (fromDimension === 'temperature') {
    return {
      ok: true,
      value: fromKelvin(toKelvin(value, from as TemperatureUnit), to as TemperatureUnit),
      dimension: fromDimension,
    };
  }
  const table = UNITS[fromDimension]!;
  return { ok: true, value: (value * table[from]!) / table[to]!, dimension: fromDimension };
}
