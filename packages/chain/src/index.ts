export * from './artifacts.ts';
export * from './bootstrap.ts';
export * from './devChain.ts';
export * from './erc20.ts';
export * from './swap.ts';
