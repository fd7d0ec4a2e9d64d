/** E-mail: SMTP sending, receipt and notification texts, and the local development inbox. */
export * from './createMailer.ts';
export * from './customerReceipt.ts';
export * from './formatFields.ts';
export * from './formatTimestamp.ts';
export * from './formatUsd.ts';
export * from './includedTax.ts';
export * from './merchantNotification.ts';
export * from './oneLine.ts';
export * from './paymentDeviation.ts';
export * from './paymentReorgNotice.ts';
export * from './readInbox.ts';
export * from './receiptLanguage.ts';
export * from './refundNotice.ts';
export * from './renderInboxPage.ts';
export * from './startDevInbox.ts';
export * from './unmatchedTransferNotice.ts';
