/**
 * Each route is declared once: its method and path, what the document says of it (summary, parameters,
 * body, every status it answers, its security) and its handler, in one call. The app's routers register the
 * handlers from these declarations (app.ts), and `/openapi.json` is generated from the same declarations
 * (../openapi.ts): both walk one list, `declareRoutes` in ./index.ts.
 */
import type { Router, RouterMiddleware } from '@koa/router';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import type { AppState } from '../context.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type RouteHandler = RouterMiddleware<AppState>;

/** What the document says of one route. */
export type RouteDoc = ZodOpenApiOperationObject;

/** A route as the document sees it: the full path (Koa's `:param` form) and its operation. */
export interface RouteDeclaration {
  method: Method;
  path: string;
  doc: RouteDoc;
}

/**
 * Where routes are declared: `routes.post(path, doc, handler)` and so on. `files` registers what the
 * document leaves out on purpose (the element's static files, matched by a pattern).
 */
export type Routes = Record<Method, (path: string, doc: RouteDoc, handler: RouteHandler) => void> & {
  files(register: (router: Router<AppState>) => void): void;
};

const methods: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** Routes registered on `router` (under its prefix), each also noted in `declared` when given. */
export function routesOn(router: Router<AppState>, declared?: RouteDeclaration[]): Routes {
  const prefix = router.opts.prefix ?? '';
  const routes = {
    files: (register: (r: Router<AppState>) => void) => register(router),
  } as unknown as Routes;
  for (const method of methods) {
    routes[method] = (path, doc, handler) => {
      router[method](path, handler);
      declared?.push({ method, path: `${prefix}${path}`, doc });
    };
  }
  return routes;
}

/** Routes only noted, for the document: their handlers are never registered nor called. */
export function recordedRoutes(declared: RouteDeclaration[], prefix = ''): Routes {
  const routes = { files: () => undefined } as unknown as Routes;
  for (const method of methods) {
    routes[method] = (path, doc) => {
      declared.push({ method, path: `${prefix}${path}`, doc });
    };
  }
  return routes;
}
