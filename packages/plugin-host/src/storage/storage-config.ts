import { QuiverError } from '@quiver/types';
import { z } from 'zod';

/**
 * `${QUIVER_…}`: the only form the storage URL and project may take in quiver.yaml. The URL holds
 * a password, so it is never committed; and both come from the environment the operator set for
 * Quiver, never from the repository: a cloned quiver.yaml must not point Quiver at a database
 * set for another program (`${DATABASE_URL}`) or join another project's grants, trust record,
 * pins and stores by naming its key.
 */
const ENVIRONMENT_REFERENCE = /^\$\{(QUIVER_[A-Za-z0-9_]*)\}$/;

/** The variable a `${QUIVER_…}` reference names, or undefined for anything else. */
export function environmentVariableOf(reference: string): string | undefined {
  return ENVIRONMENT_REFERENCE.exec(reference)?.[1];
}

/**
 * Which project the shared state belongs to: the variable `storage.project` names, or the
 * workspace path when it is absent.
 */
export function storageProjectOf(
  config: { project?: string | undefined },
  workspace: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (config.project === undefined) return workspace;
  const variable = environmentVariableOf(config.project) as string;
  const project = environment[variable];
  if (!project) {
    throw new QuiverError(
      'config_invalid',
      `quiver.yaml takes the project its shared state belongs to from \${${variable}}, but ${variable} is not set.`,
      {
        fix: `Set ${variable} to the project's name where Quiver runs (the same on every replica), or remove storage.project to key the state by the workspace path.`,
        details: { variable },
      },
    );
  }
  return project;
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
            message: `must be a reference to an environment variable whose name starts with QUIVER_, such as \${QUIVER_DATABASE_URL}: never the URL itself (it holds a password), and never a variable set for another program; set the variable where Quiver runs`,
          })
          .describe(
            `\`\${QUIVER_…}\`: the environment variable holding the postgres:// URL (its name must start with QUIVER_).`,
          ),
        project: z
          .string()
          .refine((value) => environmentVariableOf(value) !== undefined, {
            message: `must be a reference to an environment variable whose name starts with QUIVER_, such as \${QUIVER_PROJECT}: which project's grants, trust record and stores a checkout joins is chosen where Quiver runs, not by the repository`,
          })
          .optional()
          .describe(
            `\`\${QUIVER_…}\`: the environment variable naming the project the saved grants, trust record, MCP tool pins and project-scope plugin storage (kanban boards, memories) belong to, when several projects share one database; default the absolute workspace path.`,
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
    `Where grants, the session event log and plugin storage (kanban boards) live: \`{ kind: sqlite }\` (default) or \`{ kind: postgres, url: \${QUIVER_DATABASE_URL} }\` for several replicas.`,
  );

export type StorageConfig = z.infer<typeof storageConfigSchema>;
