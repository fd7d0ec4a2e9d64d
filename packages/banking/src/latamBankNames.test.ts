import { describe, expect, it } from 'vitest';
import { LatamBankNamesError } from './errors.ts';
import { latamBankNames } from './latamBankNames.ts';

function thrown(run: () => unknown): LatamBankNamesError {
  try {
    run();
  } catch (error) {
    if (error instanceof LatamBankNamesError) return error;
    throw error;
  }
  throw new Error('expected a LatamBankNamesError');
}

describe('latamBankNames', () => {
  it('returns the partner list for MX verbatim but the banks that left SPEI, then the SPEI banks it lacks', () => {
    const { bank_names } = latamBankNames('MX');
    expect(bank_names).toHaveLength(100);
    expect(bank_names.slice(0, 3)).toEqual(['BANAMEX', 'BBVA BANCOMER', 'SANTANDER']);
    expect(bank_names).toContain('INVEX ');
    expect(bank_names).toContain('BANOBRAS - Updated Name ');
    expect(bank_names).toContain('Nvio Pagos México');
    expect(bank_names).toContain('SANTANDER2');
    expect(bank_names).not.toContain('ACCENDO BANCO');
    expect(bank_names).not.toContain('ZURICH');
    expect(bank_names[77]).toBe('HIPOTECARIA FED');
    expect(bank_names.slice(78)).toEqual([
      'Mercado Pago W',
      'Spin by OXXO',
      'Hey Banco',
      'Klar',
      'albo',
      'Fondeadora',
      'Cuenca',
      'Citi México',
      'Bank of China',
      'Nafin',
      'Crediclub',
      'Tesored',
      'PPBALANCEMX',
      'Cashi Cuenta',
      'MexPago',
      'COOPDESARROLLO',
      'Transfer directo',
      'Dep y Pag Dig',
      'Swap',
      'Peibo',
      'Finco Pay',
      'Fintoc',
    ]);
  });

  it.each([
    ['AR', 45, 'Banco de Galicia y Buenos Aires S.A.U.'],
    ['CL', 30, 'Banco de Chile'],
    ['PE', 33, 'Banco de Crédito del Perú'],
  ])('returns the curated list for %s', (country, count, first) => {
    const { bank_names } = latamBankNames(country);
    expect(bank_names).toHaveLength(count);
    expect(bank_names[0]).toBe(first);
  });

  it('returns the CO list for rails koywe', () => {
    const { bank_names } = latamBankNames('CO', 'koywe');
    expect(bank_names).toHaveLength(40);
    expect(bank_names).toContain('Bancolombia');
    expect(bank_names).toContain('Nequi');
  });

  it('ignores rails outside Colombia', () => {
    expect(latamBankNames('AR', 'local').bank_names).toEqual(latamBankNames('AR').bank_names);
    expect(latamBankNames('PE', null).bank_names).toHaveLength(33);
  });

  it('has no two names in any list that differ only in case or surrounding whitespace', () => {
    for (const [country, rails] of [['AR'], ['CO', 'koywe'], ['MX'], ['CL'], ['PE']] as const) {
      const { bank_names } = latamBankNames(country, rails);
      expect(new Set(bank_names.map((name) => name.trim().toUpperCase())).size).toBe(bank_names.length);
    }
  });

  it('lists the provincial banks of Argentina', () => {
    expect(latamBankNames('AR').bank_names).toEqual(
      expect.arrayContaining([
        'Banco de Santa Cruz S.A.',
        'Banco Provincia de Tierra del Fuego',
        'Banco Rioja S.A.U.',
        'Banco de Formosa S.A.',
        'Banco de Santiago del Estero S.A.',
      ]),
    );
  });

  it('hands out a copy, so callers cannot change the list', () => {
    latamBankNames('MX').bank_names.push('NOT A BANK');
    expect(latamBankNames('MX').bank_names).not.toContain('NOT A BANK');
  });

  it.each([undefined, null, ''])('requires country_code (%s)', (country) => {
    const error = thrown(() => latamBankNames(country));
    expect(error).toMatchObject({
      name: 'LatamBankNamesError',
      field: 'country_code',
      message: 'is required',
    });
  });

  it.each(['BR', 'mx', 'MEX', 'US'])('rejects country_code %s', (country) => {
    expect(thrown(() => latamBankNames(country))).toMatchObject({
      field: 'country_code',
      message: 'must be one of: AR, CO, MX, CL, PE',
    });
  });

  it.each([undefined, null, 'local', 'KOYWE'])('rejects CO without rails koywe (%s)', (rails) => {
    expect(thrown(() => latamBankNames('CO', rails))).toMatchObject({
      field: 'rails',
      message: 'must be koywe for CO',
    });
  });
});
