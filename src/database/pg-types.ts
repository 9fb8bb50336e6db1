// How the service's own PostgreSQL connections read values, given to each of its pools and clients (pg's `types`
// option) rather than set on pg's global registry, which every other connection of the process would share: an
// import source must read its 64-bit ids exactly (src/import/source-db.ts), and there `int8` stays text.
import pg from 'pg';

const INT8 = pg.types.builtins.INT8;
const asNumber = (value: string) => Number(value);

/**
 * int8 (bigint: millisecond times, COUNT(*), bigserial ids) as numbers: every value the service stores in one fits a
 * double. Everything else as pg reads it by default.
 */
export const SERVICE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary' ? asNumber : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
