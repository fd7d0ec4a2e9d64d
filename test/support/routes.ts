/** The routes an app answers, read from its mounted routers. */
import { createApp } from '@checkout/server';
import type { TestService } from './service.ts';

export interface Route {
  method: string;
  path: string;
}

/** Every method and path of every router mounted on the service's app (HEAD, which GET implies, left out). */
export function registeredRoutes(service: TestService): Route[] {
  const app = createApp(service.deps);
  const routes: Route[] = [];
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: { stack: Array<{ path: unknown; methods: string[] }> } }).router;
    for (const layer of router?.stack ?? []) {
      // Middleware mounted with `use` has no methods; only routes are walked.
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method !== 'HEAD') routes.push({ method, path: layer.path });
      }
    }
  }
  return routes;
}
