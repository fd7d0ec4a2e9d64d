import { describe, expect, it } from 'vitest';
import { printableText, unstorableTextErrors, unstorableTextReason } from './unstorableText.ts';

describe('unstorableTextReason', () => {
  it('accepts ordinary text, emoji (surrogate pairs) and U+FFFD', () => {
    for (const text of ['', 'Shop', 'naïve', '😀 pay', '\ufffd', 'a\u0001b']) {
      expect(unstorableTextReason(text)).toBeUndefined();
    }
  });

  it('refuses NUL and lone surrogates of either half', () => {
    expect(unstorableTextReason('a\u0000b')).toMatch(/NUL/);
    for (const text of ['\ud800', 'x\udbffy', '\udc00', 'a\udfff', '\ude00\ud83d']) {
      expect(unstorableTextReason(text)).toMatch(/lone surrogate/);
    }
  });
});

describe('unstorableTextErrors', () => {
  it('names every offending value and key by its dotted path', () => {
    const body = {
      product: {
        name: 'a\u0000b',
        tags: ['ok', 'x\ud800'],
        meta: { 'k\u0000': 'v', deep: [{ z: '\u0000' }] },
      },
    };
    expect(unstorableTextErrors(body)).toEqual([
      { path: 'product.name', message: 'must not contain the NUL character (U+0000)' },
      {
        path: 'product.tags.1',
        message: 'must be valid Unicode: it contains a lone surrogate (U+D800 to U+DFFF)',
      },
      { path: 'product.meta.k\\u0000', message: 'is a key that must not contain the NUL character (U+0000)' },
      { path: 'product.meta.deep.0.z', message: 'must not contain the NUL character (U+0000)' },
    ]);
  });

  it('prefixes paths and names a bare string as the body', () => {
    expect(unstorableTextErrors({ a: '\u0000' }, ['root'])).toEqual([
      { path: 'root.a', message: 'must not contain the NUL character (U+0000)' },
    ]);
    expect(unstorableTextErrors('\u0000').map((e) => e.path)).toEqual(['(body)']);
    expect(unstorableTextErrors({ a: 1, b: null, c: [true, 'fine'] })).toEqual([]);
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    const depth = 100_000;
    const body = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
    const errors = unstorableTextErrors(body);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.path.split('.')).toHaveLength(depth);
  });
});

describe('printableText', () => {
  it('spells control characters and lone surrogates out', () => {
    expect(printableText('a\u0000b\ud800')).toBe('a\\u0000b\ufffd');
  });
});
