import { describe, expect, it } from 'vitest';
import { checkClabe } from './checkClabe.ts';

const noParticipant = (code: string) =>
  `starts with ${code}, the code of no SPEI participant on Banxico's list: no bank SPEI pays into holds it`;

describe('checkClabe', () => {
  // Published CLABEs of Mexican businesses and the textbook example.
  it.each(['002010077777777771', '012180004424133881', '002164460100681188', '646180157000000004'])(
    'accepts %s',
    (clabe) => {
      expect(checkClabe(clabe)).toBeUndefined();
    },
  );

  it.each([
    ['03218000011835971', 'must be an 18-digit CLABE'],
    ['0321800001183597190', 'must be an 18-digit CLABE'],
    ['032 180 000118359719', 'must be an 18-digit CLABE'],
    ['03218000011835971X', 'must be an 18-digit CLABE'],
    ['032180000118359718', 'has a wrong check digit'],
    ['012180004424133882', 'has a wrong check digit'],
    // Bank codes missing from Banxico's SPEI participant list (data/speiParticipants.ts): none, IXE (merged
    // into Banorte), Accendo Banco (left SPEI). The `clabe` library refuses each one too.
    ['999000000000000014', noParticipant('999')],
    ['032180000118359719', noParticipant('032')],
    ['102180000012345678', noParticipant('102')],
  ])('rejects %s', (clabe, message) => {
    expect(checkClabe(clabe)).toBe(message);
  });
});
