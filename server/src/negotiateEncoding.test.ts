import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from './negotiateEncoding.ts';

const both = ['br', 'gzip'] as const;

describe('negotiateEncoding', () => {
  it('prefers brotli over gzip at equal weight, whatever the order the browser lists them in', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(negotiateEncoding('br, gzip', both)).toBe('br');
  });

  it('follows q-values', () => {
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8', both)).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(negotiateEncoding('gzip;q=0, br;q=0', both)).toBe('identity');
    expect(negotiateEncoding('identity;q=1, br;q=0.3', both)).toBe('identity');
    expect(negotiateEncoding('BR;Q=0.9 , gzip;q=0.1', both)).toBe('br');
  });

  it('reads * as every coding not named', () => {
    expect(negotiateEncoding('*', both)).toBe('br');
    expect(negotiateEncoding('br;q=0, *;q=0.5', both)).toBe('gzip');
    expect(negotiateEncoding('*;q=0', both)).toBe('identity');
  });

  it('sends identity without a header, with an empty one, or for codings it does not have', () => {
    expect(negotiateEncoding(undefined, both)).toBe('identity');
    expect(negotiateEncoding('', both)).toBe('identity');
    expect(negotiateEncoding('identity', both)).toBe('identity');
    expect(negotiateEncoding('deflate, zstd', both)).toBe('identity');
    expect(negotiateEncoding('br', ['gzip'])).toBe('identity');
    expect(negotiateEncoding('gzip, br', ['gzip'])).toBe('gzip');
  });

  it('takes x-gzip for gzip and a malformed weight as a refusal', () => {
    expect(negotiateEncoding('x-gzip', both)).toBe('gzip');
    expect(negotiateEncoding('br;q=high, gzip;q=0.2', both)).toBe('gzip');
  });
});
