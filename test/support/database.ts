/** A fresh, migrated database for one integration file, of the kind its test project runs against. */
import { openTestDatabase, type TestDatabase, testDatabaseUnavailable } from '@checkout/db/testDatabase';

export type { TestDatabase };

/** True when this run's database is PostgreSQL and it cannot be reached (outside CI only). */
export const databaseUnavailable = testDatabaseUnavailable;

/** A fresh database; `close()` also drops it (PostgreSQL). */
export const createTestDatabase = (): Promise<TestDatabase> => openTestDatabase({ poolSize: 5 });
