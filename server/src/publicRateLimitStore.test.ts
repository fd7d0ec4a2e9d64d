import { describe, expect, it } from 'vitest';
import { memoryRateLimitStore } from './publicRateLimitStore.ts';

describe('memoryRateLimitStore', () => {
  it('counts each client within the minute and starts again with the next one', async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 50);
    const store = memoryRateLimitStore(() => now);
    expect(await store.hit('a')).toEqual({ count: 1, resetInMs: 10_000 });
    expect(await store.hit('a')).toEqual({ count: 2, resetInMs: 10_000 });
    expect((await store.hit('b')).count).toBe(1);
    now += 9_999;
    expect(await store.hit('a')).toEqual({ count: 3, resetInMs: 1 });
    now += 1;
    expect(await store.hit('a')).toEqual({ count: 1, resetInMs: 60_000 });
  });
});
