const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The name a script writes after `tools.` for a tool: the tool's own name when it is an
 * identifier, else a camel-cased one (`get-weather` → `getWeather`, `9lives` → `_9lives`).
 * `tools["get-weather"]` reaches the tool by its own name either way.
 */
export function scriptIdentifier(name: string): string {
  if (IDENTIFIER.test(name)) return name;
  const camel = name
    .replace(/[^A-Za-z0-9_$]+([A-Za-z0-9])?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())
    .replace(/^$/, '_');
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}
