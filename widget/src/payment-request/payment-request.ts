/**
 * The payment request for a wallet on another device: a QR code of the EIP-681 URI, the exact amount,
 * address and network in words (for a deposit address, any amount and a second QR code of the address alone), the URI to copy, and a link a phone's wallet app opens. Loaded on demand
 * (its own file): only shoppers who pay this way fetch the QR encoder.
 */
import { generate } from 'lean-qr/nano';

/** What the request shows; amounts and names already written for the shopper's language. */
export interface PaymentRequestInput {
  /** The EIP-681 URI (`ethereum:<token>@<chain>/transfer?address=…&uint256=…`). */
  uri: string;
  /** The exact amount with its symbol, such as "25.000137 USDT". */
  amount: string;
  receivingAddress: string;
  chainName: string;
  /** The language tag of the element. */
  locale: string;
  /**
   * A refund's request (the refund pay page): its own words, and no address, which the page shows once
   * beside it.
   */
  refund?: boolean;
  /**
   * `receivingAddress` is the session's own deposit address: any amount sent there pays it, so the words say
   * so, and a second QR code holds the address alone (for wallets and exchanges that ignore the request).
   */
  deposit?: boolean;
}

/** The words of a deposit address's request where they differ from an exact amount's, by language. */
const depositTexts = {
  en: {
    exact: (amount: string, chain: string) => `Send ${amount} on ${chain} to this address of your order:`,
    why: 'This address is your order’s alone: a wallet that rounds, or an exchange that takes its fee out, still pays it.',
    addressOnly: 'The address alone, for a wallet or exchange that asks for an address:',
  },
  es: {
    exact: (amount: string, chain: string) => `Envía ${amount} en ${chain} a esta dirección de tu pedido:`,
    why: 'Esta dirección es solo de tu pedido: una billetera que redondea, o un exchange que descuenta su comisión, lo paga igual.',
    addressOnly: 'Solo la dirección, para una billetera o un exchange que pide una dirección:',
  },
  pt: {
    exact: (amount: string, chain: string) => `Envie ${amount} na ${chain} para este endereço do seu pedido:`,
    why: 'Este endereço é só do seu pedido: uma carteira que arredonda, ou uma exchange que desconta a taxa, paga-o do mesmo jeito.',
    addressOnly: 'Só o endereço, para uma carteira ou exchange que pede um endereço:',
  },
};

/** The words of a refund's request where they differ from a checkout's, by language. */
const refundTexts = {
  en: {
    title: 'Pay this refund from another device',
    exact: (amount: string, chain: string) =>
      `Send exactly ${amount} on ${chain}, in one transfer, from your receiving wallet to your customer’s address.`,
    why: 'The request carries the exact refund: the service recognises the transfer on the chain.',
    waiting: 'Waiting for the refund’s transfer…',
  },
  es: {
    title: 'Paga este reembolso desde otro dispositivo',
    exact: (amount: string, chain: string) =>
      `Envía exactamente ${amount} en ${chain}, en una sola transferencia, desde tu billetera receptora a la dirección de tu cliente.`,
    why: 'La solicitud lleva el reembolso exacto: el servicio reconoce la transferencia en la cadena.',
    waiting: 'Esperando la transferencia del reembolso…',
  },
  pt: {
    title: 'Pague este reembolso de outro dispositivo',
    exact: (amount: string, chain: string) =>
      `Envie exatamente ${amount} na ${chain}, em uma única transferência, da sua carteira de recebimento para o endereço do seu cliente.`,
    why: 'A solicitação traz o reembolso exato: o serviço reconhece a transferência na rede.',
    waiting: 'Aguardando a transferência do reembolso…',
  },
};

const texts = {
  en: {
    title: 'Pay from another device',
    scan: 'Scan this code with your phone’s wallet, or copy the payment request.',
    exact: (amount: string, chain: string) => `Send exactly ${amount} on ${chain}, in one transfer, to:`,
    why: 'The amount identifies your payment: send it to the last digit.',
    qr: (uri: string) => `QR code of the payment request ${uri}`,
    request: 'Payment request',
    copy: 'Copy payment request',
    copied: 'Payment request copied.',
    copyFailed: 'This browser did not allow copying; select the request above.',
    open: 'Open in a wallet app',
    waiting: 'Waiting for your payment…',
  },
  es: {
    title: 'Pagar desde otro dispositivo',
    scan: 'Escanea este código con la billetera de tu teléfono o copia la solicitud de pago.',
    exact: (amount: string, chain: string) =>
      `Envía exactamente ${amount} en ${chain}, en una sola transferencia, a:`,
    why: 'El importe identifica tu pago: envíalo hasta el último dígito.',
    qr: (uri: string) => `Código QR de la solicitud de pago ${uri}`,
    request: 'Solicitud de pago',
    copy: 'Copiar la solicitud de pago',
    copied: 'Solicitud de pago copiada.',
    copyFailed: 'Este navegador no permitió copiar; selecciona la solicitud de arriba.',
    open: 'Abrir en una app de billetera',
    waiting: 'Esperando tu pago…',
  },
  pt: {
    title: 'Pagar de outro dispositivo',
    scan: 'Escaneie este código com a carteira do seu celular ou copie a solicitação de pagamento.',
    exact: (amount: string, chain: string) =>
      `Envie exatamente ${amount} na ${chain}, em uma única transferência, para:`,
    why: 'O valor identifica o seu pagamento: envie-o até o último dígito.',
    qr: (uri: string) => `Código QR da solicitação de pagamento ${uri}`,
    request: 'Solicitação de pagamento',
    copy: 'Copiar a solicitação de pagamento',
    copied: 'Solicitação de pagamento copiada.',
    copyFailed: 'Este navegador não permitiu copiar; selecione a solicitação acima.',
    open: 'Abrir em um app de carteira',
    waiting: 'Aguardando o seu pagamento…',
  },
};

/**
 * The texts of the request in `locale`'s language: a tag the element picked (`pickLocale`), so its first two
 * letters name one of its languages; English otherwise.
 */
export function requestTexts(locale: string): (typeof texts)['en'] {
  const lang = locale.slice(0, 2);
  return Object.hasOwn(texts, lang) ? texts[lang as keyof typeof texts] : texts.en;
}

/** The QR code of `data` as one SVG path, one unit per module, with a quiet zone of 4 around `size`. */
export function qrPath(data: string): { size: number; path: string } {
  const code = generate(data);
  let path = '';
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) path += `M${x + 4} ${y + 4}h1v1h-1z`;
  }
  return { size: code.size + 8, path };
}

const svgNs = 'http://www.w3.org/2000/svg';
const style = `.pr{display:grid;gap:.6rem;justify-items:start}.pr h3{margin:0;font-size:1rem}
.pr svg{width:min(14rem,100%);height:auto;background:#fff;border-radius:4px}
.pr textarea{font:inherit;font-size:.8rem;width:100%;box-sizing:border-box;resize:none;color:inherit;
background:var(--cc-background);border:1px solid var(--cc-border);border-radius:calc(var(--cc-radius)*.6);padding:.4rem}
.pr .addr{font-size:.8rem;word-break:break-all}.pr .row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}`;

/** The QR code of `data` as an SVG image named `label`. */
function qrSvg(data: string, label: string): SVGSVGElement {
  const { size, path } = qrPath(data);
  return build(
    document.createElementNS(svgNs, 'svg'),
    { viewBox: `0 0 ${size} ${size}`, role: 'img', 'aria-label': label, 'shape-rendering': 'crispEdges' },
    build(document.createElementNS(svgNs, 'path'), { d: path, fill: '#000' }),
  );
}

/** `node` with the attributes of `props` (those undefined left out) and `children`. */
function build<T extends Element>(
  node: T,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): T {
  for (const [name, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Partial<Record<string, string>>,
  ...children: (Node | string)[]
) => build(document.createElement(tag), props, ...children);

/**
 * The request as an element to place in the checkout's shadow root (whose styles it uses), with its own
 * small style sheet. The copy button reports its outcome in a polite live region.
 */
export function paymentRequestPanel(input: PaymentRequestInput): HTMLElement {
  const lang = input.locale.slice(0, 2);
  const t = input.refund
    ? {
        ...requestTexts(input.locale),
        ...(Object.hasOwn(refundTexts, lang)
          ? refundTexts[lang as keyof typeof refundTexts]
          : refundTexts.en),
      }
    : requestTexts(input.locale);
  const svg = qrSvg(input.uri, t.qr(input.uri));
  const deposit = input.deposit
    ? Object.hasOwn(depositTexts, lang)
      ? depositTexts[lang as keyof typeof depositTexts]
      : depositTexts.en
    : undefined;

  const uriId = 'payment-request-uri';
  const request = el('textarea', { id: uriId, readonly: '', rows: '4', part: 'input' }, input.uri);
  const status = el('p', { class: 'muted', role: 'status' });
  const copy = el('button', { type: 'button' }, t.copy);
  copy.addEventListener('click', () => {
    navigator.clipboard.writeText(input.uri).then(
      () => {
        status.textContent = t.copied;
      },
      () => {
        status.textContent = t.copyFailed;
        request.select();
      },
    );
  });
  return el(
    'div',
    { part: 'payment-request', class: 'pr' },
    el('style', {}, style),
    el('h3', {}, t.title),
    el('p', {}, t.scan),
    svg,
    el('p', {}, (deposit ?? t).exact(input.amount, input.chainName)),
    input.refund ? '' : el('p', { class: 'addr' }, el('code', {}, input.receivingAddress)),
    el('p', { class: 'muted' }, (deposit ?? t).why),
    ...(deposit
      ? [el('p', {}, deposit.addressOnly), qrSvg(input.receivingAddress, input.receivingAddress)]
      : []),
    el('label', { for: uriId }, t.request),
    request,
    el('div', { class: 'row' }, copy, el('a', { href: input.uri }, t.open)),
    status,
    el('p', { part: 'message', role: 'status', class: 'waiting' }, t.waiting),
  );
}
