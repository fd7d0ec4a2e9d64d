import { describe, expect, it } from 'vitest';
import { stdnumValidator } from '../stdnumValidator.ts';
import { checkCbu } from './checkCbu.ts';
import { checkClabe } from './checkClabe.ts';
import { checkCuit } from './checkCuit.ts';
import { checkRut } from './checkRut.ts';

// The checks the service keeps as its own code, compared with stdnum on every check digit of sampled bodies.
// `mod` keeps the samples spread and the same from run to run.
const bodies = (length: number, count: number, mod = 7919) =>
  Array.from({ length: count }, (_, i) =>
    String((i * mod * 104729 + 12345) % 10 ** length).padStart(length, '0'),
  );
const allEndings = (body: string, alphabet = '0123456789') => [...alphabet].map((c) => body + c);

describe('own checks against stdnum', () => {
  it('CUIT/CUIL: the same verdict for every holder prefix; 50, 51 and 55 are refused by decision', () => {
    const cuit = stdnumValidator('AR', 'cuit');
    for (const prefix of ['20', '23', '24', '27', '30', '33', '34']) {
      for (const body of bodies(8, 40)) {
        for (const value of allEndings(prefix + body)) {
          expect([value, checkCuit(value) === undefined]).toEqual([value, cuit.validate(value).isValid]);
        }
      }
    }
    expect(cuit.validate('50000000016').isValid).toBe(true);
    expect(checkCuit('50000000016')).toBeDefined();
  });

  it('RUT: the same verdict on 7- and 8-digit bodies, with every check character', () => {
    const rut = stdnumValidator('CL', 'rut');
    for (const body of [
      ...bodies(7, 60).map((b) => `1${b}`.slice(0, 7)),
      ...bodies(8, 60).map((b) => `2${b.slice(1)}`),
    ]) {
      for (const value of allEndings(body, '0123456789K')) {
        expect([value, checkRut(value) === undefined]).toEqual([value, rut.validate(value).isValid]);
      }
    }
  });

  it('CLABE: the same verdict for banks and plazas stdnum knows', () => {
    const clabe = stdnumValidator('MX', 'clabe');
    for (const bank of ['002', '012', '014', '072']) {
      for (const account of bodies(11, 25)) {
        for (const value of allEndings(`${bank}180${account}`)) {
          expect([value, checkClabe(value) === undefined]).toEqual([value, clabe.validate(value).isValid]);
        }
      }
    }
  });

  it('CBU: the same verdict, except that stdnum refuses a check digit of 0 the formula gives', () => {
    const cbu = stdnumValidator('AR', 'cbu');
    let zeroChecks = 0;
    for (const bank of bodies(7, 20)) {
      for (const first of allEndings(bank)) {
        for (const account of bodies(13, 5, 104723)) {
          for (const value of allEndings(first + account)) {
            const ours = checkCbu(value) === undefined;
            if (ours && (value[7] === '0' || value[21] === '0')) {
              // stdnum computes String(10 - sum % 10), "10" where python-stdnum gives "0".
              zeroChecks++;
              expect(cbu.validate(value).isValid).toBe(false);
              continue;
            }
            expect([value, ours]).toEqual([value, cbu.validate(value).isValid]);
          }
        }
      }
    }
    expect(zeroChecks).toBeGreaterThan(0);
  });
});
