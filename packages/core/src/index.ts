export * from './amount.ts';
export * from './chains.ts';
export * from './errors.ts';
export * from './schemas/common.ts';
export * from './schemas/error.ts';
export * from './schemas/product.ts';
export * from './schemas/resolvedPayment.ts';
export * from './zodErrors.ts';
