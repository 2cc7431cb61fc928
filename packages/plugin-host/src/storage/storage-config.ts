import { z } from 'zod';

/** `${NAME}`: the only form a storage URL may take in quiver.yaml, so no password is committed. */
const ENVIRONMENT_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The variable a `${NAME}` reference names, or undefined for anything else. */
export function environmentVariableOf(reference: string): string | undefined {
  return ENVIRONMENT_REFERENCE.exec(reference)?.[1];
}

/** `storage` in quiver.yaml: where host-owned shared state lives. */
export const storageConfigSchema = z
  .discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('sqlite') })
      .strict()
      .describe('SQLite files under the data directory (one host).'),
    z
      .object({
        kind: z.literal('postgres'),
        url: z
          .string()
          .refine((value) => environmentVariableOf(value) !== undefined, {
            message: `must be an environment variable reference such as \${QUIVER_DATABASE_URL}, never the URL itself (it holds a password); set the variable where Quiver runs`,
          })
          .describe(`\`\${VARIABLE}\`: the environment variable holding the postgres:// URL.`),
        project: z
          .string()
          .min(1)
          .optional()
          .describe(
            'Which project the saved grants and the project-scope plugin storage (kanban boards) belong to, when several projects share one database; default the absolute workspace path.',
          ),
        leaseSeconds: z
          .number()
          .positive()
          .default(15)
          .describe(
            'A replica not heard from for this long is taken for dead: its unfinished calls are marked interrupted and reported by a live one.',
          ),
      })
      .strict()
      .describe('PostgreSQL shared by several `quiver serve` replicas.'),
  ])
  .default({ kind: 'sqlite' })
  .describe(
    `Where grants, the session event log and plugin storage (kanban boards) live: \`{ kind: sqlite }\` (default) or \`{ kind: postgres, url: \${VARIABLE} }\` for several replicas.`,
  );

export type StorageConfig = z.infer<typeof storageConfigSchema>;
