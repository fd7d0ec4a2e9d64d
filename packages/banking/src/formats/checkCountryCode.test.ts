import { describe, expect, it } from 'vitest';
import { checkCountryCode } from './checkCountryCode.ts';

describe('checkCountryCode', () => {
  it.each(['US', 'GB', 'AR', 'MX', 'DE', 'XK'])('accepts %s', (code) => {
    expect(checkCountryCode(code)).toBeUndefined();
  });

  it.each(['us', 'USA', 'U', 'ZZ', 'UK', '840'])('rejects %s', (code) => {
    expect(checkCountryCode(code)).toBe('must be an ISO 3166-1 alpha-2 country code such as US');
  });
});
