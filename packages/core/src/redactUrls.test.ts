import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsIn } from './redactUrls.ts';

const infuraKey = '9aa3d95b3bc440fa88ea12eaa4456161';
const alchemyKey = 'Hk3vP_qW8xZ-m2LrT9sYbN4cJ7dF1gAe';

describe('redactUrl', () => {
  it("hides providers' keys in the path and keeps the route's words", () => {
    expect(redactUrl(`https://mainnet.infura.io/v3/${infuraKey}`)).toBe(
      'https://mainnet.infura.io/v3/[redacted]',
    );
    expect(redactUrl(`https://eth-mainnet.g.alchemy.com/v2/${alchemyKey}`)).toBe(
      'https://eth-mainnet.g.alchemy.com/v2/[redacted]',
    );
    expect(
      redactUrl('https://broken-icy-mountain.quiknode.pro/14fb466c039ca54a895f597ee2744e848949099d/'),
    ).toBe('https://broken-icy-mountain.quiknode.pro/[redacted]/');
    expect(
      redactUrl('https://rpc.ankr.com/bsc/0f3e4b8c2a1d9e7f6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f'),
    ).toBe('https://rpc.ankr.com/bsc/[redacted]');
    // Words of a route stay, even long ones.
    expect(redactUrl('https://ethereum-sepolia.publicnode.com/polygon-mainnet-archive')).toBe(
      'https://ethereum-sepolia.publicnode.com/polygon-mainnet-archive',
    );
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
  });

  it('hides the user and password, every query value and the fragment', () => {
    expect(redactUrl('https://user:s3cret@rpc.example.com:8443/bsc?network=bsc&dkey=abc#frag')).toBe(
      'https://[redacted]@rpc.example.com:8443/bsc?network=[redacted]&dkey=[redacted]#[redacted]',
    );
    expect(redactUrl('wss://node.example/ws?token')).toBe('wss://node.example/ws?[redacted]');
    expect(redactUrl('postgres://app:pw@db:5432/checkout')).toBe('postgres://[redacted]@db:5432/checkout');
  });
});

describe('redactUrlsIn', () => {
  it('hides the secrets of every URL in a text, as viem writes them into its errors', () => {
    const message = [
      'HTTP request failed.',
      '',
      'Status: 429',
      `URL: https://mainnet.infura.io/v3/${infuraKey}`,
      'Request body: {"method":"eth_getLogs"}',
    ].join('\n');
    const out = redactUrlsIn(message);
    expect(out).not.toContain(infuraKey);
    expect(out).toContain('URL: https://mainnet.infura.io/v3/[redacted]\nRequest body');
  });

  it('stops at a JSON escape, so a serialised log line keeps its shape', () => {
    const line = JSON.stringify({ msg: `failed\nURL: https://x.io/v2/${alchemyKey}\nVersion: viem` });
    const out = redactUrlsIn(line);
    expect(out).not.toContain(alchemyKey);
    expect(JSON.parse(out).msg).toBe('failed\nURL: https://x.io/v2/[redacted]\nVersion: viem');
  });

  it('leaves text without URLs as it is', () => {
    expect(redactUrlsIn('no url here: a:b')).toBe('no url here: a:b');
  });
});
