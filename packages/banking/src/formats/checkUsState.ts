// The 50 states, the District of Columbia and the inhabited territories, as USPS writes them.
const usStates = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA ' +
    'RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI'
  ).split(' '),
);

/** Why `value` is not a two-letter US state code, or undefined when it is. */
export function checkUsState(value: string): string | undefined {
  return usStates.has(value) ? undefined : 'must be a two-letter US state code such as CA';
}
