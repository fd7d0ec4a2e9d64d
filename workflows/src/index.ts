export * from './activities.ts';
export * from './devServer.ts';
export * from './shared.ts';
export * from './worker.ts';
