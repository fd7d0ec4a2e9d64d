/**
 * The console: merchants sign in with a wallet (Sign-In with Ethereum). Nonces are handed out once and used
 * once; a session is a random token stored hashed, with its expiry; team members are wallets a merchant
 * invited, each with a role (the merchant's receiving wallets are its owners and are not listed here).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('console_nonces_expiry_idx')
    .on('console_nonces')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'support', 'viewer')`))
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pkey', ['merchant_id', 'address'])
    .execute();
  await db.schema.createIndex('team_members_address_idx').on('team_members').column('address').execute();

  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('console_sessions_member_idx')
    .on('console_sessions')
    .columns(['merchant_id', 'address'])
    .execute();
  await db.schema
    .createIndex('console_sessions_expiry_idx')
    .on('console_sessions')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_sessions').execute();
  await db.schema.dropTable('team_members').execute();
  await db.schema.dropTable('console_nonces').execute();
}
