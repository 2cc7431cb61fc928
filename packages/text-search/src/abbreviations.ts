/**
 * Abbreviations of software texts and the words they stand for, applied to queries and to the
 * texts they are matched against alike, so "pg_locks" and "locks in postgres", "list PRs" and
 * "list_pull_requests", "lat, lon" and "latitude and longitude" share their words. Only short
 * forms with one meaning in software writing are listed. Short forms a concept group of
 * domain-synonyms.ts already has (PR, MR, repo, DB, auth, dir) are left to it: replacing them
 * would change how rare their long forms are, and with it every ranking that uses them.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  k8s: 'kubernetes',
  pg: 'postgres',
  psql: 'postgres',
  postgresql: 'postgres',
  gh: 'github',
  env: 'environment',
  envs: 'environments',
  msg: 'message',
  msgs: 'messages',
  dm: 'direct message',
  dms: 'direct messages',
  info: 'information',
  stats: 'statistics',
  perf: 'performance',
  img: 'image',
  deps: 'dependencies',
  cfg: 'configuration',
  creds: 'credentials',
  ns: 'namespace',
  svc: 'service',
  vm: 'virtual machine',
  vms: 'virtual machines',
  lat: 'latitude',
  lng: 'longitude',
  lon: 'longitude',
  wit: 'work item',
};

const expansions = new Map<string, readonly string[]>(
  Object.entries(ABBREVIATIONS).map(([short, long]) => [short, long.split(' ')]),
);

/** The words `words` stand for: each listed abbreviation replaced by its words, the rest as they are. */
export function expandAbbreviations(words: readonly string[]): string[] {
  let expanded: string[] | undefined;
  for (let index = 0; index < words.length; index += 1) {
    const long = expansions.get(words[index] as string);
    if (long === undefined) {
      expanded?.push(words[index] as string);
      continue;
    }
    expanded ??= words.slice(0, index);
    expanded.push(...long);
  }
  return expanded ?? (words as string[]);
}

/** The abbreviation table, for documentation and tests. */
export function abbreviationTable(): ReadonlyMap<string, readonly string[]> {
  return expansions;
}
