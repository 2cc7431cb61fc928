import { createTestStorage, structuredOf, type TestStorage } from '@quiver/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySave, memorySearch, type ScoredMemory } from '../src/index.js';

// A realistic set of things an assistant is told while working with one developer.
const CORPUS: { key: string; text: string; tags: string[] }[] = [
  {
    key: 'pnpm',
    text: 'The user prefers pnpm over npm and yarn as the package manager for JavaScript projects.',
    tags: ['tooling'],
  },
  {
    key: 'fridays',
    text: "Never deploy to production on Fridays; the team's release window is Tuesday to Thursday.",
    tags: ['deploy', 'policy'],
  },
  { key: 'timezone', text: 'Dana works from Berlin, in the Central European time zone.', tags: ['profile'] },
  {
    key: 'approvals',
    text: 'Code reviews need two approvals before merging into the main branch.',
    tags: ['process', 'git'],
  },
  {
    key: 'staging-db',
    text: 'The staging database is PostgreSQL 16 on db-staging.internal, port 5433.',
    tags: ['infrastructure', 'database'],
  },
  {
    key: 'concise',
    text: 'Dana likes concise answers without long explanations unless she asks for details.',
    tags: ['preferences'],
  },
  {
    key: 'indentation',
    text: 'Use tabs for indentation in Go files and two spaces in TypeScript files.',
    tags: ['style'],
  },
  { key: 'ci', text: 'The CI pipeline runs on GitHub Actions and takes about twelve minutes.', tags: ['ci'] },
  {
    key: 'secrets',
    text: 'API keys are stored in 1Password, never in .env files committed to the repository.',
    tags: ['security', 'secrets'],
  },
  {
    key: 'react',
    text: 'The frontend is built with React 19 and Vite; server-side rendering is not used.',
    tags: ['frontend'],
  },
  {
    key: 'peanuts',
    text: 'Dana is allergic to peanuts, so team lunch orders must avoid them.',
    tags: ['personal'],
  },
  { key: 'cat', text: "The user's cat is called Miso.", tags: ['personal'] },
  {
    key: 'i18n',
    text: 'Error messages shown to end users must be translated into German and English.',
    tags: ['i18n'],
  },
  {
    key: 'logs',
    text: 'Logs are shipped to Grafana Loki and kept for thirty days.',
    tags: ['observability', 'logging'],
  },
  {
    key: 'mobile',
    text: 'The mobile app targets iOS 17 and Android 14 as minimum versions.',
    tags: ['mobile'],
  },
  {
    key: 'dark-mode',
    text: 'Dana prefers dark mode in every editor and terminal theme.',
    tags: ['preferences'],
  },
  {
    key: 'planning',
    text: 'The weekly planning meeting happens every Monday at 10:00 Berlin time.',
    tags: ['meetings'],
  },
  {
    key: 'migrations',
    text: 'Database migrations must stay backwards compatible for one release.',
    tags: ['database', 'process'],
  },
  { key: 'emoji', text: 'The user dislikes emojis in commit messages.', tags: ['git', 'preferences'] },
  {
    key: 'conventional',
    text: 'Commit messages follow the Conventional Commits format, for example "feat:" or "fix:".',
    tags: ['git'],
  },
  {
    key: 'stripe',
    text: 'The payment provider is Stripe; test mode keys start with sk_test.',
    tags: ['payments'],
  },
  {
    key: 'zendesk',
    text: 'Customer support tickets are handled in Zendesk by the support team in Lisbon.',
    tags: ['support'],
  },
  {
    key: 'benchmarks',
    text: 'Benchmark numbers should be reported as ratios against a baseline, not absolute times.',
    tags: ['benchmarks'],
  },
  { key: 'fiscal', text: "The company's fiscal year starts in April.", tags: ['business'] },
  {
    key: 'flags',
    text: 'Feature flags are managed with LaunchDarkly; remove stale flags after a month.',
    tags: ['feature-flags'],
  },
  { key: 'laptop', text: "Dana's laptop runs Fedora Linux with the GNOME desktop.", tags: ['profile'] },
  {
    key: 'images',
    text: 'Docker images are published to the GitHub Container Registry under ghcr.io/acme.',
    tags: ['containers'],
  },
  {
    key: 'on-call',
    text: 'The on-call rotation changes every Wednesday; the schedule lives in PagerDuty.',
    tags: ['on-call'],
  },
  {
    key: 'python',
    text: 'Python services use Poetry for dependency management and Ruff for linting.',
    tags: ['python', 'tooling'],
  },
  {
    key: 'screenshots',
    text: 'Dana wants pull request descriptions to include screenshots for UI changes.',
    tags: ['process', 'frontend'],
  },
];

const PARAPHRASED_QUERIES: [query: string, expected: string][] = [
  ['can we release on a friday?', 'fridays'],
  ['what time zone does Dana work in', 'timezone'],
  ['how many approvals does a merge request need', 'approvals'],
  ['staging postgres host and port', 'staging-db'],
  ['indenting Go code', 'indentation'],
  ['where do we keep secret API keys', 'secrets'],
  ['what is the retention period for logging', 'logs'],
  ['commit message format convention', 'conventional'],
  ['who is on call this week, where is the schedule', 'on-call'],
  ['keep answers short and concise', 'concise'],
  ['is the frontend using react', 'react'],
  ['migrating the database schema safely', 'migrations'],
  ['minimum Android version for the app', 'mobile'],
  ['which package manager for javascript', 'pnpm'],
];

describe('memory_search ranking', () => {
  let storage: TestStorage;
  const idsByKey = new Map<string, string>();

  beforeAll(async () => {
    storage = await createTestStorage({ prefix: 'quiver-memory', personalityId: 'assistant' });
    for (const [index, memory] of CORPUS.entries()) {
      // Spread the corpus over the three scopes: ranking must work across them.
      const scope = (['personality', 'project', 'user'] as const)[index % 3];
      const saved = structuredOf<{ memory: { id: string }; merged: boolean }>(
        await storage.call(memorySave, { text: memory.text, tags: memory.tags, scope }),
      );
      expect(saved.merged).toBe(false);
      idsByKey.set(memory.key, saved.memory.id);
    }
  });

  afterAll(async () => {
    await storage.dispose();
  });

  it.each(PARAPHRASED_QUERIES)('ranks the expected memory first for "%s"', async (query, expected) => {
    const { results } = structuredOf<{ results: ScoredMemory[] }>(
      await storage.call(memorySearch, { query }),
    );
    const keys = results.map(
      (result) => CORPUS.find((memory) => idsByKey.get(memory.key) === result.id)?.key,
    );
    expect(keys[0], `ranking: ${keys.join(', ')}`).toBe(expected);
  });

  it('narrows results to memories carrying every requested tag', async () => {
    const { results } = structuredOf<{ results: ScoredMemory[] }>(
      await storage.call(memorySearch, { query: 'user preferences commit', tags: ['git', 'preferences'] }),
    );
    expect(results.map((result) => result.id)).toEqual([idsByKey.get('emoji')]);
  });

  it('says so when nothing matches', async () => {
    const result = await storage.call(memorySearch, { query: 'kubernetes helm charts' });
    expect(result.ok && result.value).toBe('No memories match "kubernetes helm charts".');
  });
});
