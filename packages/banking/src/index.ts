export { canonicalPaymentDetail } from './canonicalPaymentDetail.ts';
export { LatamBankNamesError } from './errors.ts';
export { findLatamBank } from './findLatamBank.ts';
export { checkAbaRoutingNumber } from './formats/checkAbaRoutingNumber.ts';
export { checkAccountType } from './formats/checkAccountType.ts';
export { checkBic } from './formats/checkBic.ts';
export { checkBsb } from './formats/checkBsb.ts';
export { checkCbu } from './formats/checkCbu.ts';
export { checkCci } from './formats/checkCci.ts';
export { checkClabe } from './formats/checkClabe.ts';
export { checkColombianCedula } from './formats/checkColombianCedula.ts';
export { checkCountryCode } from './formats/checkCountryCode.ts';
export { checkCuit } from './formats/checkCuit.ts';
export { checkCurp } from './formats/checkCurp.ts';
export { checkIban } from './formats/checkIban.ts';
export { checkIfsc } from './formats/checkIfsc.ts';
export { checkNit } from './formats/checkNit.ts';
export { checkPeruvianDni } from './formats/checkPeruvianDni.ts';
export { checkPhone } from './formats/checkPhone.ts';
export { checkRfc } from './formats/checkRfc.ts';
export { checkRuc } from './formats/checkRuc.ts';
export { checkRut } from './formats/checkRut.ts';
export { checkSepaIban } from './formats/checkSepaIban.ts';
export { checkSortCode } from './formats/checkSortCode.ts';
export { checkUsState } from './formats/checkUsState.ts';
export { type LatamBankNamesResult, latamBankNames } from './latamBankNames.ts';
export { resolvePaymentRail } from './resolvePaymentRail.ts';
export { type SupportedPaymentRail, supportedPaymentRails } from './supportedPaymentRails.ts';
export {
  type LatamCountryCode,
  latamCountryCodes,
  type PaymentDetailField,
  type PaymentDetailFieldError,
  type PaymentDetailInput,
  type PaymentDetailValidation,
  type PaymentRail,
  paymentDetailFields,
  paymentRails,
} from './types.ts';
export { type ValidatePaymentDetailOptions, validatePaymentDetail } from './validatePaymentDetail.ts';
