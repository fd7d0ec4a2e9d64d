export { createApp } from './app.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export type { AppDeps, AppState } from './context.ts';
export { createLogger, type Logger } from './logger.ts';
export { buildOpenApiDocument } from './openapi.ts';
export { widgetFileRoutes } from './routes/widgetFiles.ts';
export { type RunningService, startService } from './service.ts';
export { createWidgetAssets } from './widgetAssets.ts';
