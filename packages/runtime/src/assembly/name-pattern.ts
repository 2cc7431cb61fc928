const compiled = new Map<string, RegExp>();

/** True when `pattern` names `name` exactly or as a `*` glob. */
export function matchesNamePattern(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
    compiled.set(pattern, regex);
  }
  return regex.test(name);
}

export function matchesAnyNamePattern(patterns: readonly string[], name: string): string | undefined {
  return patterns.find((pattern) => matchesNamePattern(pattern, name));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
