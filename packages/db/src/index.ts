export * from './dataDirLock.ts';
export * from './migrate.ts';
export * from './openDatabase.ts';
export * from './repositories/idempotency.ts';
export * from './repositories/merchants.ts';
export * from './repositories/products.ts';
export * from './repositories/resolvedPayments.ts';
export type * from './schema.ts';
export * from './secretBox.ts';
