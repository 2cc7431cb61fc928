const compiled = new Map<string, RegExp>();

/**
 * True when `pattern` names `name`: exactly, or as a glob where `*` stands for any run of
 * characters and `?` for one. Tool names, hook matchers, permission rules, agent tool lists and
 * MCP include/exclude lists all match names this way.
 */
export function matchesNamePattern(pattern: string, name: string): boolean {
  if (!pattern.includes('*') && !pattern.includes('?')) return pattern === name;
  let regex = compiled.get(pattern);
  if (!regex) {
    const source = [...pattern]
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    regex = new RegExp(`^${source}$`, 's');
    compiled.set(pattern, regex);
  }
  return regex.test(name);
}
