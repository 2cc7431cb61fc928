import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import { applyPostgresMigrations } from './migrations.js';

const REPLICA_MIGRATIONS = [
  `CREATE TABLE quiver_replicas (
     id TEXT PRIMARY KEY,
     host TEXT NOT NULL,
     pid INTEGER NOT NULL,
     started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     stopped_at TIMESTAMPTZ
   )`,
];

/** Default lease: a replica not heard from for this long is taken for dead. */
export const DEFAULT_REPLICA_LEASE_MS = 15_000;

export interface ReplicaLeaseOptions {
  /** A replica missing its heartbeat for this long is dead: its running calls may be recovered. */
  leaseMs?: number;
  /** Default: a random id per process. */
  replicaId?: string;
}

/**
 * This process's membership among the replicas sharing a database: a row it refreshes every
 * third of its lease. Others take a replica whose row went stale (or that stopped) for dead,
 * which is what lets them mark its unfinished calls interrupted without touching a live one's.
 */
export class ReplicaLease {
  readonly id: string;
  readonly leaseMs: number;
  readonly #pool: pg.Pool;
  #timer: ReturnType<typeof setInterval> | undefined;

  private constructor(pool: pg.Pool, id: string, leaseMs: number) {
    this.#pool = pool;
    this.id = id;
    this.leaseMs = leaseMs;
  }

  static async start(pool: pg.Pool, options: ReplicaLeaseOptions = {}): Promise<ReplicaLease> {
    await applyPostgresMigrations(pool, 'replicas', REPLICA_MIGRATIONS);
    const lease = new ReplicaLease(
      pool,
      options.replicaId ?? randomUUID(),
      options.leaseMs ?? DEFAULT_REPLICA_LEASE_MS,
    );
    await pool.query(
      `INSERT INTO quiver_replicas (id, host, pid) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET seen_at = now(), stopped_at = NULL`,
      [lease.id, hostname(), process.pid],
    );
    lease.#timer = setInterval(
      () => {
        lease.#pool
          .query('UPDATE quiver_replicas SET seen_at = now() WHERE id = $1', [lease.id])
          .catch(() => {
            // A missed heartbeat is retried by the next tick; a long outage ends the lease, as it should.
          });
      },
      Math.max(100, Math.floor(lease.leaseMs / 3)),
    );
    lease.#timer.unref();
    return lease;
  }

  /** SQL condition true for a replica id (`column`) that is stopped or whose lease has run out. */
  static deadCondition(column: string, leaseParameter: string): string {
    return `NOT EXISTS (SELECT 1 FROM quiver_replicas r WHERE r.id = ${column} AND r.stopped_at IS NULL
              AND r.seen_at > now() - (${leaseParameter} * interval '1 millisecond'))`;
  }

  /** Ends the heartbeat and records the stop, so that others need not wait out the lease. */
  async stop(): Promise<void> {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#pool.query('UPDATE quiver_replicas SET stopped_at = now() WHERE id = $1', [this.id]);
  }
}
