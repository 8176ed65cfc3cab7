import type { ISql } from 'postgres';

/** A pool or an open transaction: the statements below run on either. */
export type Queryable = ISql;
