/** The chain layer: dev chain process and bootstrap, token ABIs, swap quotes and calls. */
export * from './artifacts.ts';
export * from './bootstrap.ts';
export * from './devChain.ts';
export * from './erc20.ts';
export * from './swap.ts';
