/** The chain layer: dev chain, token ABIs, swaps, payment verification, deposit addresses and forwarders, and treasury sends. */
export * from './artifacts.ts';
export * from './bootstrap.ts';
export * from './chainClients.ts';
export * from './chainTransport.ts';
export * from './confirmations.ts';
export * from './depositAddress.ts';
export * from './depositForwarder.ts';
export * from './deposits.ts';
export * from './devChain.ts';
export * from './endpointStates.ts';
export * from './erc20.ts';
export * from './missingEdrBinding.ts';
export * from './readTransfers.ts';
export * from './rpcErrors.ts';
export * from './sendToken.ts';
export * from './swap.ts';
export * from './verifyPayment.ts';
