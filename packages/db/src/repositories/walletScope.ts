/** What an Area A request may see: its merchant's wallet, and with a test key only test networks' records. */
import { sql } from 'kysely';

/** The merchant and the receiving wallet of a request; `testOnly` for a test key (ck_test_…). */
export interface WalletScope {
  merchantId: string;
  addressId: string;
  testOnly?: boolean | undefined;
}

/** The network of a record's stored token (a jsonb column of `StoredToken`), for a test key's filter. */
export const storedTokenNetwork = (column: string) => sql<string>`${sql.ref(column)}->>'network'`;
