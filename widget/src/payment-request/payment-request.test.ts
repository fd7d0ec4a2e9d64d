// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { paymentRequestPanel, qrPath, requestTexts } from './payment-request.ts';

const uri =
  'ethereum:0x5FbDB2315678afecb367f032d93F642f64180aa3@97/transfer?address=0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF&uint256=5000137000000000000';

describe('qrPath', () => {
  it('draws one square per dark module inside a quiet zone of 4', () => {
    const { size, path } = qrPath(uri);
    const squares = path.match(/M(\d+) (\d+)h1v1h-1z/g) ?? [];
    expect(squares.length).toBeGreaterThan(100);
    expect(path).toBe(squares.join(''));
    // The top-left finder pattern starts at the quiet zone's edge.
    expect(path.startsWith('M4 4h1v1h-1z')).toBe(true);
    for (const square of squares) {
      const [, x, y] = /M(\d+) (\d+)/.exec(square)!.map(Number);
      expect(x! >= 4 && x! < size - 4 && y! >= 4 && y! < size - 4).toBe(true);
    }
  });

  it('differs for another request', () => {
    expect(qrPath(uri).path).not.toBe(qrPath(uri.replace('137', '138')).path);
  });
});

describe('paymentRequestPanel', () => {
  const panel = paymentRequestPanel({
    uri,
    amount: '5.000137 BUSD',
    receivingAddress: '0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF',
    chainName: 'BNB Smart Chain Testnet',
    locale: 'en-GB',
  });

  it('names its QR code by the request, and gives the request to copy and to open', () => {
    const svg = panel.querySelector('svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe(`QR code of the payment request ${uri}`);
    const field = panel.querySelector('textarea')!;
    expect(field.value).toBe(uri);
    expect(field.readOnly).toBe(true);
    expect(panel.querySelector(`label[for="${field.id}"]`)?.textContent).toBe('Payment request');
    expect(panel.querySelector('a')?.getAttribute('href')).toBe(uri);
    expect(panel.querySelector('button')?.textContent).toBe('Copy payment request');
  });

  it('states the exact amount, the network and the address', () => {
    expect(panel.textContent).toContain('Send exactly 5.000137 BUSD on BNB Smart Chain Testnet');
    expect(panel.textContent).toContain('0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF');
  });

  it('speaks the element’s language, English otherwise', () => {
    expect(requestTexts('es-MX').title).toBe('Pagar desde otro dispositivo');
    expect(requestTexts('pt-BR').title).toBe('Pagar de outro dispositivo');
    expect(requestTexts('de').title).toBe('Pay from another device');
    expect(requestTexts('__proto__').title).toBe('Pay from another device');
  });

  it('for a deposit address, asks for the amount without "exactly" and adds a QR code of the address alone', () => {
    const address = '0x0f5D2fB29fb7d3CFeE444a200298f468908cC942';
    const deposit = paymentRequestPanel({
      uri: uri.replace('0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF', address).replace('137', '000'),
      amount: '5.00 BUSD',
      receivingAddress: address,
      chainName: 'BNB Smart Chain Testnet',
      locale: 'en',
      deposit: true,
    });
    expect(deposit.textContent).toContain(
      'Send 5.00 BUSD on BNB Smart Chain Testnet to this address of your order',
    );
    expect(deposit.textContent).not.toContain('exactly');
    const codes = [...deposit.querySelectorAll('svg')];
    expect(codes).toHaveLength(2);
    expect(codes[1]!.getAttribute('aria-label')).toBe(address);
    expect(codes[1]!.querySelector('path')!.getAttribute('d')).toBe(qrPath(address).path);
    expect(panel.querySelectorAll('svg')).toHaveLength(1);
  });
});
