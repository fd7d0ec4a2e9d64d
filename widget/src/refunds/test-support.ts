/**
 * Test helpers of the refund pages: a fake public API answering from a table of routes, and waiting for
 * an element's text. Only the pages' unit tests import it.
 */
import { vi } from 'vitest';

/** One answer: a body and its status (200 unless given). */
export type FakeAnswer = { status?: number; body: unknown };

/** Every request the fake API received: method, path and JSON body. */
export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A fake `fetch` answering `METHOD /path` from `routes` (a function is asked each time); a path it does not
 * know answers 404 in the service's error shape.
 */
export function fakeApi(routes: Record<string, FakeAnswer | (() => FakeAnswer)>): {
  fetch: ReturnType<typeof vi.fn>;
  calls: FakeCall[];
} {
  const calls: FakeCall[] = [];
  const fetch = vi.fn(async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body });
    const route = routes[`${method} ${url.pathname}`];
    const answer = typeof route === 'function' ? route() : route;
    return new Response(
      JSON.stringify(answer?.body ?? { error_code: 'not_found', message: 'Not found', errors: [] }),
      { status: answer ? (answer.status ?? 200) : 404, headers: { 'content-type': 'application/json' } },
    );
  });
  return { fetch, calls };
}

/** The element's shadow text, whitespace collapsed. */
export const shadowText = (el: Element) => el.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** Waits (at most 400 rounds of 5 ms) until `until` holds. */
export async function settle(el: Element & { updateComplete: Promise<unknown> }, until: () => boolean) {
  for (let i = 0; i < 400 && !until(); i++) {
    await new Promise((r) => setTimeout(r, 5));
    await el.updateComplete;
  }
}
