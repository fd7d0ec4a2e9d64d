export { createApp } from './app.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export type { AppDeps, AppState } from './context.ts';
export { createLogger, type Logger } from './logger.ts';
export { createMetrics } from './metrics.ts';
export { buildOpenApiDocument } from './openapi.ts';
export { widgetFileRoutes } from './routes/widgetFiles.ts';
export { devWalletAddress, openConfiguredDatabase, type RunningService, startService } from './service.ts';
export { createWidgetAssets } from './widgetAssets.ts';
