/** The element's texts in Portuguese: a file of its own, fetched the first time a page uses the language. */
import type { Messages } from '../i18n.ts';

/** Every text of the element in Portuguese. */
export const messages: Messages = {
  loading: 'Carregando o pagamento…',
  loadFailed: 'Não foi possível carregar este pagamento.',
  retry: 'Tentar de novo',
  testMode: 'Modo de teste',
  amountUsd: 'Valor (USD)',
  amountRequired: 'Informe um valor.',
  amountFormat: 'Use um número com no máximo 2 casas decimais, como 25,00.',
  amountPositive: 'O valor deve ser maior que 0.',
  amountMax: (max) => `O valor não pode passar de ${max}.`,
  taxIncluded: (rate, tax) => `Inclui ${rate} % de impostos: ${tax}`,
  email: 'E-mail',
  emailInvalid: 'Informe um e-mail válido.',
  fieldRequired: 'Este campo é obrigatório.',
  customField: {
    full_name: 'Nome completo',
    reference: 'Referência',
    referrer: 'Indicado por',
    company: 'Empresa',
    job_title: 'Cargo',
  },
  payWith: (wallet) => `Pagar com ${wallet}`,
  browserWallet: 'Carteira do navegador',
  noWallet: 'Nenhuma carteira encontrada neste navegador.',
  otherDevice: 'Pagar de outro dispositivo',
  noAmount: 'Este pagamento precisa de um link de pagamento do lojista.',
  inactive: 'Este pagamento não está ativo: nada pode ser pago aqui.',
  linkInvalid:
    'Este link de pagamento não é válido. Confira o link que você recebeu ou peça um novo ao lojista.',
  backToShop: 'Voltar à loja',
  expiresIn: (time) => `Tempo para pagar: ${time}`,
  minutesLeft: (n) => (n === 1 ? 'Resta 1 minuto para pagar' : `Restam ${n} minutos para pagar`),
  secondsLeft: (n) => `Restam ${n} segundos para pagar`,
  steps: ['Conectar', 'Revisar', 'Carteira', 'Enviado', 'Confirmando', 'Concluído'],
  stepScan: 'Escanear e pagar',
  stepFailed: 'Falhou',
  stepExpired: 'Expirado',
  stepClosed: 'Encerrado',
  progress: 'Progresso',
  errors: {
    unavailable:
      'O serviço de pagamento não pôde responder agora. Tente de novo em instantes: nada é pago duas vezes.',
  },
};
