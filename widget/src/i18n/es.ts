/** The element's texts in Spanish: a file of its own, fetched the first time a page uses the language. */
import type { Messages } from '../i18n.ts';

/** Every text of the element in Spanish. */
export const messages: Messages = {
  loading: 'Cargando el pago…',
  loadFailed: 'No se pudo cargar este pago.',
  retry: 'Reintentar',
  testMode: 'Modo de prueba',
  amountUsd: 'Importe (USD)',
  amountRequired: 'Introduce un importe.',
  amountFormat: 'Usa un número con 2 decimales como máximo, por ejemplo 25,00.',
  amountPositive: 'El importe debe ser mayor que 0.',
  amountMax: (max) => `El importe no puede superar ${max}.`,
  taxIncluded: (rate, tax) => `Incluye ${rate} % de impuestos: ${tax}`,
  email: 'Correo electrónico',
  emailInvalid: 'Introduce un correo electrónico válido.',
  fieldRequired: 'Este campo es obligatorio.',
  customField: {
    full_name: 'Nombre completo',
    reference: 'Referencia',
    referrer: 'Recomendado por',
    company: 'Empresa',
    job_title: 'Cargo',
  },
  payWith: (wallet) => `Pagar con ${wallet}`,
  browserWallet: 'Billetera del navegador',
  noWallet: 'No se encontró ninguna billetera en este navegador.',
  otherDevice: 'Pagar desde otro dispositivo',
  noAmount: 'Este pago necesita un enlace de pago del comercio.',
  inactive: 'Este pago no está activo: aquí no se puede pagar nada.',
  linkInvalid:
    'Este enlace de pago no es válido. Revisa el enlace que te dieron o pide uno nuevo al comercio.',
  backToShop: 'Volver a la tienda',
  expiresIn: (time) => `Tiempo para pagar: ${time}`,
  minutesLeft: (n) => (n === 1 ? 'Queda 1 minuto para pagar' : `Quedan ${n} minutos para pagar`),
  secondsLeft: (n) => `Quedan ${n} segundos para pagar`,
  steps: ['Conectar', 'Revisar', 'Billetera', 'Enviado', 'Confirmando', 'Listo'],
  stepScan: 'Escanear y pagar',
  stepFailed: 'Fallido',
  stepExpired: 'Caducado',
  stepClosed: 'Cerrado',
  progress: 'Progreso',
  errors: {
    unavailable:
      'El servicio de pago no pudo responder ahora. Inténtalo en un momento: nada se paga dos veces.',
  },
};
