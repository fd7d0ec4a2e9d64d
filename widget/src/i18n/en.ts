/** The element's texts in English: a file of its own, fetched with the view (the first render needs none). */

/** Every text of the element in English; its shape is every language's (`Messages`). */
export const messages = {
  loading: 'Loading checkout…',
  loadFailed: 'This checkout could not be loaded.',
  retry: 'Try again',
  testMode: 'Test mode',
  amountUsd: 'Amount (USD)',
  amountRequired: 'Enter an amount.',
  amountFormat: 'Use a number with at most 2 decimals, such as 25.00.',
  amountPositive: 'The amount must be greater than 0.',
  amountMax: (max: string) => `The amount must not exceed ${max}.`,
  taxIncluded: (rate: string, tax: string) => `Includes ${rate} % tax: ${tax}`,
  email: 'E-mail',
  emailInvalid: 'Enter a valid e-mail address.',
  fieldRequired: 'This field is required.',
  customField: {
    full_name: 'Full name',
    reference: 'Reference',
    referrer: 'Referred by',
    company: 'Company',
    job_title: 'Job title',
  } as Record<string, string>,
  payWith: (wallet: string) => `Pay with ${wallet}`,
  browserWallet: 'Browser wallet',
  noWallet: 'No wallet found in this browser.',
  otherDevice: 'Pay from another device',
  noAmount: 'This checkout needs a payment link from the merchant.',
  inactive: 'This checkout is not active: nothing can be paid here.',
  linkInvalid:
    'This payment link is not valid. Check the link you were given, or ask the merchant for a new one.',
  backToShop: 'Back to the shop',
  expiresIn: (time: string) => `Time left to pay: ${time}`,
  minutesLeft: (n: number) => (n === 1 ? '1 minute left to pay' : `${n} minutes left to pay`),
  secondsLeft: (n: number) => `${n} seconds left to pay`,
  steps: ['Connect', 'Review', 'Wallet', 'Sent', 'Confirming', 'Done'] as readonly string[],
  stepScan: 'Scan and pay',
  stepFailed: 'Failed',
  stepExpired: 'Expired',
  stepClosed: 'Closed',
  progress: 'Progress',
  errors: {
    unavailable:
      'The checkout service could not answer just now. Try again in a moment: nothing is paid twice.',
  },
};
