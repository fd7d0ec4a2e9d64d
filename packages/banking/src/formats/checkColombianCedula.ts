// Cédulas carry no check digit: only the form can be checked. The Registraduría's numbers run to 10 digits.
/** Why `value` is not a Colombian cédula (de ciudadanía or de extranjería) number of 3 to 10 digits, or undefined. */
export function checkColombianCedula(value: string): string | undefined {
  return /^\d{3,10}$/.test(value) ? undefined : 'must be 3 to 10 digits';
}
