// Type-level checks of the portable storage contract (checked by `tsc --noEmit`).
import { expectTypeOf } from 'vitest';
import type { SqlQueryable, SqlStore, StorageHandle } from '../src/index.js';

declare const storage: StorageHandle;
declare const store: SqlStore;

expectTypeOf(storage.connect).returns.resolves.toEqualTypeOf<SqlStore>();
expectTypeOf(store.get<{ id: number }>).returns.resolves.toEqualTypeOf<{ id: number } | undefined>();
expectTypeOf(store.all<{ id: number }>).returns.resolves.toEqualTypeOf<{ id: number }[]>();
expectTypeOf(store.run).returns.resolves.toEqualTypeOf<{ changes: number }>();
expectTypeOf(store.dialect).toEqualTypeOf<'sqlite' | 'postgres'>();
expectTypeOf(store.transaction<number>)
  .parameter(0)
  .parameter(0)
  .toEqualTypeOf<SqlQueryable>();

// A transaction's queryable cannot open another transaction.
// @ts-expect-error SqlQueryable has no transaction
void store.transaction(async (tx) => tx.transaction);

// Parameters are scalars or bytes; dates and objects must be converted by the plugin.
// @ts-expect-error a Date is not a SqlParameter
void store.run('INSERT INTO t (at) VALUES (?)', [new Date()]);
void store.run('INSERT INTO t (a, b, c, d, e, f) VALUES (?, ?, ?, ?, ?, ?)', [
  'text',
  1,
  2n,
  true,
  null,
  new Uint8Array([1]),
]);

// Migrations come in both dialects.
// @ts-expect-error the postgres list is required
void storage.connect('notes', { scope: 'project', migrations: { sqlite: [] } });
