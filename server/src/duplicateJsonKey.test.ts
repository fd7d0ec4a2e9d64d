import { describe, expect, it } from 'vitest';
import { duplicateJsonKey } from './duplicateJsonKey.ts';

describe('duplicateJsonKey', () => {
  it('names the first key given twice in one object, with its path', () => {
    expect(duplicateJsonKey('{"dollar_amount":"1.00","dollar_amount":"999.00"}')).toBe('dollar_amount');
    expect(duplicateJsonKey('{"product":{"name":"a","token":{},"name":"b"}}')).toBe('product.name');
    expect(duplicateJsonKey('{"offramps":[{"a":1},{"b":[1,2],"b":3}]}')).toBe('offramps.1.b');
    // The same key after decoding its escapes.
    expect(duplicateJsonKey('{"a":1,"\\u0061":2}')).toBe('a');
  });

  it('accepts the same key in different objects and keys inside strings', () => {
    expect(duplicateJsonKey('{"a":{"a":1},"b":{"a":2},"c":[{"a":1},{"a":1}]}')).toBeUndefined();
    expect(duplicateJsonKey('{"a":"\\"a\\":1","b":"x\\\\","c":"{\\"a\\":1,\\"a\\":2}"}')).toBeUndefined();
    expect(duplicateJsonKey(' [1, "a", {"k": null}] ')).toBeUndefined();
    expect(duplicateJsonKey('"text"')).toBeUndefined();
  });

  it('walks any depth without recursion', () => {
    const deep = `${'[{"a":1,"b":'.repeat(50_000)}0${'}]'.repeat(50_000)}`;
    expect(duplicateJsonKey(deep)).toBeUndefined();
    const repeated = `${'{"a":'.repeat(50_000)}{"x":1,"x":2}${'}'.repeat(50_000)}`;
    expect(duplicateJsonKey(repeated)?.endsWith('a.a.x')).toBe(true);
  });
});
