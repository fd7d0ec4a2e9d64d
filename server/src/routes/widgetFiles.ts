/** GET /widget/* : the built element's files, with the caching and compression of {@link WidgetAssets}. */
import type { Router } from '@koa/router';
import type { Context, DefaultState } from 'koa';
import type { WidgetAssets } from '../widgetAssets.ts';

/** Answers `ctx` with the built file `path` of `files` (compressed as the client accepts, cached), or a 404. */
export async function sendBuiltFile(ctx: Context, files: WidgetAssets, path: string): Promise<void> {
  const reply = await files.reply(path, {
    acceptEncoding: ctx.get('Accept-Encoding') || undefined,
    ifNoneMatch: ctx.get('If-None-Match') || undefined,
  });
  if (!reply) {
    ctx.status = 404;
    return;
  }
  ctx.set(reply.headers);
  ctx.status = reply.status;
  if (reply.body) ctx.body = reply.body;
}

/** Registers the widget files on `router` (the service's and the widget benchmark's). */
export function widgetFileRoutes<S extends DefaultState & { route?: string }>(
  router: Router<S>,
  widget: WidgetAssets,
): void {
  router.get(/^\/widget\/(.+)$/, async (ctx) => {
    ctx.state.route = '/widget/*';
    await sendBuiltFile(ctx, widget, ctx.path.slice('/widget/'.length));
  });
}
