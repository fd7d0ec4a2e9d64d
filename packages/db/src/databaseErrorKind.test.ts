import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { databaseErrorKind, sqlState } from './databaseErrorKind.ts';

describe('databaseErrorKind', () => {
  it('sorts SQLSTATE classes and socket errors', () => {
    const of = (code: string) => databaseErrorKind(Object.assign(new Error('x'), { code }));
    expect(of('22021')).toBe('invalid_data');
    expect(of('22P05')).toBe('invalid_data');
    expect(of('22001')).toBe('invalid_data');
    expect(of('23505')).toBe('constraint');
    expect(of('23502')).toBe('constraint');
    expect(of('40001')).toBe('conflict');
    expect(of('08006')).toBe('unavailable');
    expect(of('57P01')).toBe('unavailable');
    expect(of('53300')).toBe('unavailable');
    expect(of('ECONNREFUSED')).toBe('unavailable');
    expect(of('42P01')).toBe('other');
    expect(databaseErrorKind(new TypeError('x'))).toBe('other');
    expect(databaseErrorKind(undefined)).toBe('other');
    expect(sqlState({ code: 'ERR_X' })).toBeUndefined();
  });

  it('recognises what the embedded database answers to a NUL and a broken rule', async () => {
    const db = new PGlite();
    try {
      const nul = await db.query('select $1::text as v', ['a\u0000b']).catch((e: unknown) => e);
      expect(databaseErrorKind(nul)).toBe('invalid_data');
      await db.exec('create table kinds (x int not null)');
      const missing = await db.query('insert into kinds values (null)').catch((e: unknown) => e);
      expect(sqlState(missing)).toBe('23502');
      expect(databaseErrorKind(missing)).toBe('constraint');
    } finally {
      await db.close();
    }
  });
});
