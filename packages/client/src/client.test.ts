import { describe, expect, it } from 'vitest';
import { createCheckoutClient } from './client.ts';

/** A fetch that records each request and answers `{}`. */
function recording() {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return Response.json({});
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

describe('the client of a console session', () => {
  it('sends no key, and the CSRF token on writes only', async () => {
    const { seen, fetch } = recording();
    let token: string | undefined = 'csrf-1';
    const client = createCheckoutClient({
      baseUrl: 'https://pay.example.com/',
      csrfToken: () => token,
      fetch,
    });
    await client.GET('/api/v1/refunds');
    await client.POST('/api/v1/refunds/{id}/cancel', {
      params: { path: { id: '00000000-0000-4000-8000-000000000001' } },
      body: {},
    });
    token = undefined;
    await client.POST('/api/v1/refunds/{id}/cancel', {
      params: { path: { id: '00000000-0000-4000-8000-000000000001' } },
      body: {},
    });
    expect(
      seen.map((r) => [r.method, r.headers.get('Authorization'), r.headers.get('X-CSRF-Token')]),
    ).toEqual([
      ['GET', null, null],
      ['POST', null, 'csrf-1'],
      ['POST', null, null],
    ]);
    expect(seen.every((r) => r.credentials === 'same-origin')).toBe(true);
  });

  it('sends the key as a bearer token when it has one', async () => {
    const { seen, fetch } = recording();
    const client = createCheckoutClient({ baseUrl: 'https://pay.example.com', apiKey: 'ck_1', fetch });
    await client.GET('/api/v1/refunds');
    expect(seen[0]?.headers.get('Authorization')).toBe('Bearer ck_1');
  });
});
