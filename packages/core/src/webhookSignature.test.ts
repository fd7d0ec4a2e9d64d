import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature, webhookSignatureHeader } from './webhookSignature.ts';

const secret = 'whsec_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const body = '{"id":"9f1c","dollar_amount":"25.00","note":"café ☕"}';
const t = 1_688_740_624;
const at = (seconds: number) => seconds * 1000;

function reference(key: string, timestamp: number, raw: string | Buffer): string {
  return createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(raw)]))
    .digest('hex');
}

describe('signWebhook', () => {
  it('matches HMAC-SHA256 over "<t>.<raw body>" computed independently', async () => {
    const expected = reference(secret, t, body);
    expect(await signWebhook({ secret, timestamp: t, body })).toBe(expected);
    expect(await signWebhook({ secret, timestamp: t, body: Buffer.from(body) })).toBe(expected);
  });

  it('matches fixed vectors computed with openssl', async () => {
    // printf '1688740624.{"a":1}' | openssl dgst -sha256 -hmac whsec_abc
    expect(await signWebhook({ secret: 'whsec_abc', timestamp: t, body: '{"a":1}' })).toBe(
      'c565be98680c326a0cf26cb560c4367133a39f7cb1c192410a1b1f463bd65e99',
    );
    // An empty body still signs "<t>.".
    expect(await signWebhook({ secret: 'key', timestamp: 0, body: '' })).toBe(
      '85841b4efc3cd7776c3c8f9b7cca9e281c550e5d19889d78e9e669c6337f000d',
    );
  });

  it('formats the X-Sig header with a comma and a space', () => {
    expect(webhookSignatureHeader(t, 'ab'.repeat(32))).toBe(`t=${t}, s=${'ab'.repeat(32)}`);
    expect(() => webhookSignatureHeader(-1, 'ab')).toThrow(RangeError);
    expect(() => webhookSignatureHeader(1.5, 'ab')).toThrow(RangeError);
  });
});

describe('verifyWebhookSignature', () => {
  const header = webhookSignatureHeader(t, reference(secret, t, body));

  it('accepts the genuine signature, as string or bytes, within the tolerance', async () => {
    expect(await verifyWebhookSignature({ secret, header, body, now: at(t) })).toEqual({
      ok: true,
      timestamp: t,
    });
    const bytes = new Uint8Array(Buffer.from(body));
    expect((await verifyWebhookSignature({ secret, header, body: bytes, now: at(t + 299) })).ok).toBe(true);
    expect((await verifyWebhookSignature({ secret, header, body, now: at(t - 300) })).ok).toBe(true);
  });

  it('accepts the header without the space and with upper-case hex', async () => {
    const sig = reference(secret, t, body);
    for (const h of [`t=${t},s=${sig}`, `t=${t}, s=${sig.toUpperCase()}`, ` s=${sig} , t=${t} `]) {
      expect((await verifyWebhookSignature({ secret, header: h, body, now: at(t) })).ok, h).toBe(true);
    }
  });

  it('refuses a tampered body, a wrong secret or a re-serialised body', async () => {
    const result = { ok: false, reason: 'signature_mismatch' };
    expect(await verifyWebhookSignature({ secret, header, body: `${body} `, now: at(t) })).toEqual(result);
    expect(
      await verifyWebhookSignature({ secret, header, body: body.replace('25.00', '2500'), now: at(t) }),
    ).toEqual(result);
    expect(await verifyWebhookSignature({ secret: `${secret}x`, header, body, now: at(t) })).toEqual(result);
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(await verifyWebhookSignature({ secret, header, body: reserialised, now: at(t) })).toEqual(result);
  });

  it('accepts the new or the previous secret while a rotation settles, and no other', async () => {
    const previous = `${secret}-old`;
    const byPrevious = webhookSignatureHeader(t, reference(previous, t, body));
    const ok = { ok: true, timestamp: t };
    expect(await verifyWebhookSignature({ secret: [secret, previous], header, body, now: at(t) })).toEqual(
      ok,
    );
    expect(
      await verifyWebhookSignature({ secret: [secret, previous], header: byPrevious, body, now: at(t) }),
    ).toEqual(ok);
    expect(await verifyWebhookSignature({ secret, header: byPrevious, body, now: at(t) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(await verifyWebhookSignature({ secret: [], header, body, now: at(t) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses a signature replayed under another timestamp', async () => {
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(await verifyWebhookSignature({ secret, header: moved, body, now: at(t) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses stale and future timestamps', async () => {
    const stale = { ok: false, reason: 'stale_timestamp' };
    expect(await verifyWebhookSignature({ secret, header, body, now: at(t + 301) })).toEqual(stale);
    expect(await verifyWebhookSignature({ secret, header, body, now: at(t - 301) })).toEqual(stale);
    expect(
      await verifyWebhookSignature({ secret, header, body, now: at(t + 3600), toleranceSeconds: 3600 }),
    ).toEqual({ ok: true, timestamp: t });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['no timestamp', `s=${'a'.repeat(64)}`],
    ['no signature', `t=${t}`],
    ['short signature', `t=${t}, s=abcd`],
    ['non-hex signature', `t=${t}, s=${'z'.repeat(64)}`],
    ['non-numeric timestamp', `t=abc, s=${'a'.repeat(64)}`],
    ['negative timestamp', `t=-5, s=${'a'.repeat(64)}`],
    ['repeated field', `t=${t}, t=${t}`],
    ['extra field', `t=${t}, s=${'a'.repeat(64)}, v=1`],
    ['other scheme', `sha256=${'a'.repeat(64)}`],
  ])('refuses a malformed header (%s)', async (_name, bad) => {
    expect(await verifyWebhookSignature({ secret, header: bad, body, now: at(t) })).toEqual({
      ok: false,
      reason: 'malformed_header',
    });
  });
});
