/** Area B: users and their KYC state, KYC sessions, payment details and the account webhook endpoint. */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('beneficiary_type', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('company_name', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'text', (c) => c.notNull())
    .addColumn('address_line1', 'text', (c) => c.notNull())
    .addColumn('address_line2', 'text')
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('postcode', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('nationality', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('ssn_ciphertext', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .addColumn('source_of_funds', 'text')
    .addColumn('business_activity', 'text')
    .addColumn('business_description', 'text')
    .addColumn('kyc', 'jsonb', (c) => c.notNull())
    .addColumn('kyc_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('users_beneficiary_type_check', sql`beneficiary_type in ('individual', 'business')`)
    .execute();
  await db.schema
    .createIndex('users_merchant_created_idx')
    .on('users')
    .columns(['merchant_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('kyc_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('opened_at', 'timestamptz')
    .addColumn('submitted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('kyc_sessions_user_idx').on('kyc_sessions').column('user_id').execute();

  await db.schema
    .createTable('payment_details')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('rails', 'text')
    .addColumn('beneficiary_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('details_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'payment_details_status_check',
      sql`status in ('initiated', 'pending', 'approved', 'failed', 'deactivated')`,
    )
    .execute();
  await db.schema
    .createIndex('payment_details_user_created_idx')
    .on('payment_details')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('account_webhook_endpoints')
    .addColumn('merchant_id', 'uuid', (c) => c.primaryKey().references('merchants.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_webhook_endpoints').execute();
  await db.schema.dropTable('payment_details').execute();
  await db.schema.dropTable('kyc_sessions').execute();
  await db.schema.dropTable('users').execute();
}
