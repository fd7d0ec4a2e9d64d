// The countries of the IBAN registry of ISO 13616, kept by SWIFT as registration authority: the SWIFT IBAN
// Registry, release 101 (the countries python-stdnum 2.2 reads from it), plus the territories the registry lists
// under France, Finland and the United Kingdom with their own IBAN country code (as schwifty reads them from the
// same registry). ibantools also knows IBAN-like formats some central banks publish outside the registry (AO, DZ,
// IR, MA, SN… its `IBANRegistry: false`); those are refused. Its flag is not used, because it is older than
// release 101: Burundi, Djibouti, the Falkland Islands and Honduras have joined since.
/** IBAN country codes of the ISO 13616 registry. */
export const ibanRegistryCountries: ReadonlySet<string> = new Set(
  [
    'AD AE AL AT AZ BA BE BG BH BI BR BY CH CR CY CZ DE DJ DK DO EE EG ES FI FK FO FR GB GE GI GL GR GT HN HR HU',
    'IE IL IQ IS IT JO KW KZ LB LC LI LT LU LV LY MC MD ME MK MN MR MT MU NI NL NO OM PK PL PS PT QA RO RS RU SA',
    'SC SD SE SI SK SM SO ST SV TL TN TR UA VA VG XK YE',
    // Territories: Åland (FI); French Guiana, Guadeloupe, Martinique, Réunion, French Polynesia, the French
    // Southern Territories, Mayotte, New Caledonia, Saint Barthélemy, Saint Martin, Saint Pierre and Miquelon,
    // Wallis and Futuna (FR); Guernsey, the Isle of Man, Jersey (GB).
    'AX GF GP MQ RE PF TF YT NC BL MF PM WF GG IM JE',
  ]
    .join(' ')
    .split(' '),
);
