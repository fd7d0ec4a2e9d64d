import { describe, expect, it } from 'vitest';
import { loggablePath } from './observe.ts';

describe('loggablePath', () => {
  it('logs the route, never the token, of every page and call a token opens', () => {
    const token = 'rc_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
    expect(loggablePath(`/api/v1/refund_claims/${token}`)).toBe('/api/v1/refund_claims/:token');
    expect(loggablePath(`/api/v1/refund_payments/${token}`)).toBe('/api/v1/refund_payments/:token');
    expect(loggablePath(`/refunds/claim/${token}`)).toBe('/refunds/claim/:token');
    expect(loggablePath(`/refunds/pay/${token}`)).toBe('/refunds/pay/:token');
    expect(loggablePath(`/sandbox/kyc/${token}/submit`)).toBe('/sandbox/kyc/:token/submit');
  });

  it('logs other paths as they are', () => {
    expect(loggablePath('/api/v1/refunds')).toBe('/api/v1/refunds');
    expect(loggablePath('/api/v1/checkout/sessions/3f1c/close')).toBe('/api/v1/checkout/sessions/3f1c/close');
  });
});
