// Source: shared/research/area-b-offramps.md §6, "LATAM nationality allow-list", from the partner's hidden
// required-fields page; verbatim, including the retired AN (Netherlands Antilles).
/** Nationalities the Latam payout partners accept from individuals (CLP, COP over koywe, MXN, PEN). */
export const latamNationalities: readonly string[] = (
  'AG AR BS BB BZ BO BR CA CL CO CR CU DM DO EC SV GD GT GY HT HN JM MX NI PA PY PE PR KN LC VC SR TT US UY VE AI AW ' +
  'BM BQ KY GS GL GP FK MQ MS AN TC VG VI'
).split(' ');
