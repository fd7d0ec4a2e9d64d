/** Column types shared by the table types of every area (schema.ts, checkoutSchema.ts, rampsSchema.ts, usersSchema.ts). */
import type { ColumnType } from 'kysely';

/** A `timestamptz`: read as a Date, written as a Date or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A `jsonb` column holding `T`, written as its serialised JSON. */
export type Json<T> = ColumnType<T, string, string>;

/** A token as stored inside a session or a resolved payment (the wire Token without id). */
export interface StoredToken {
  symbol: string;
  address: string;
  name: string;
  decimal_count: number;
  blockchain: string;
  network: string;
}
