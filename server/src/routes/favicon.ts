/**
 * GET /favicon.ico: the site's icon, which browsers ask for on every page of the origin. A 32×32 ICO
 * holding one PNG (182 bytes) of a filled circle in the element's accent colour, `server/assets/favicon.ico`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Routes } from './declare.ts';

const favicon = readFileSync(new URL('../../assets/favicon.ico', import.meta.url));

export function faviconRoutes(router: Routes): void {
  router.get(
    '/favicon.ico',
    {
      summary: 'The icon',
      responses: { '200': { description: 'An icon', content: { 'image/x-icon': { schema: z.string() } } } },
    },
    (ctx) => {
      ctx.type = 'image/x-icon';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = favicon;
    },
  );
}
