import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature, webhookHeaderNames } from './index.ts';

describe('merchant SDK', () => {
  it('verifies a request signed the way the service signs it', async () => {
    const secret = 'whsec_sdk';
    const body = Buffer.from('{"event":"resolved_payment.created"}');
    const t = Math.floor(Date.now() / 1000);
    const s = createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(`${t}.`), body]))
      .digest('hex');
    expect(await verifyWebhookSignature({ secret, header: `t=${t}, s=${s}`, body })).toEqual({
      ok: true,
      timestamp: t,
    });
    expect(webhookHeaderNames).toEqual({
      signature: 'X-Sig',
      id: 'X-Webhook-Id',
      originalId: 'X-Webhook-Original-Id',
      event: 'X-Webhook-Event',
      eventId: 'X-Event-Id',
      eventSequence: 'X-Event-Sequence',
      test: 'X-Test-Event',
    });
  });
});
