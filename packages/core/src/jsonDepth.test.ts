import { describe, expect, it } from 'vitest';
import { jsonDepth, maxJsonDepth } from './jsonDepth.ts';

const nested = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

describe('jsonDepth', () => {
  it('counts objects and arrays', () => {
    expect(jsonDepth('text')).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
    expect(jsonDepth(nested(maxJsonDepth))).toBe(maxJsonDepth);
  });

  it('stops counting past the limit, at any depth, without recursion', () => {
    expect(jsonDepth(nested(5_000))).toBe(maxJsonDepth + 1);
    const arrays = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(jsonDepth(arrays, 100_000)).toBe(100_000);
  });
});
