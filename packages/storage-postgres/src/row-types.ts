import type { SqlParameter } from '@quiver/types';
import pg from 'pg';

const BOOL = 16;
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

function integer(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

const identity = (text: string): string => text;

/**
 * Parsers that make PostgreSQL rows look like SQLite's: COUNT and BIGINT as numbers (bigint only
 * past 2^53), NUMERIC (SUM, AVG) as numbers, booleans as 0/1, dates as the server's text.
 */
export const PORTABLE_ROW_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (text: string) => unknown {
    if (format === 'binary') return pg.types.getTypeParser(oid, format);
    switch (oid) {
      case INT8:
        return integer;
      case NUMERIC:
        return Number;
      case BOOL:
        return (text) => (text === 't' ? 1 : 0);
      case DATE:
      case TIMESTAMP:
      case TIMESTAMPTZ:
        return identity;
      default:
        return pg.types.getTypeParser(oid, 'text');
    }
  },
};

/** The same parameter means the same value in both dialects: booleans as 0/1, bigints as integers. */
export function portableParameters(params: readonly SqlParameter[]): unknown[] {
  return params.map((value) => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
    return value;
  });
}
