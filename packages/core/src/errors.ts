/** Stable snake_case error codes and the one table that maps each to its HTTP status. */
const errorStatus = {
  bad_request: 400,
  parameter_missing: 400,
  invalid_json: 400,
  invalid_header: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  record_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  record_invalid: 422,
  product_inactive: 422,
  tx_already_used: 422,
  tx_already_submitted: 422,
  tx_rejected: 422,
  tx_not_for_session: 422,
  tx_before_checkout: 422,
  checkout_expired: 409,
  checkout_closed: 409,
  checkout_already_paid: 409,
  record_not_unique: 422,
  not_yet_passed_kyc_kyb: 422,
  not_approved_for_payout_rail: 422,
  payment_detail_not_active: 422,
  idempotency_key_mismatch: 422,
  quote_already_executed: 422,
  no_offramps_present: 422,
  sum_mismatch: 422,
  payment_detail_not_approved: 422,
  currency_mismatch: 422,
  quote_expired: 422,
  offramp_not_bounced: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** One offending input: a dotted path (`product.token.address`) and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

/** The one error body of the whole API. */
export interface ErrorBody {
  error_code: string;
  message: string;
  status: number;
  errors: FieldError[];
}

/**
 * Base error of the service: a stable code, a one-sentence message and the field errors.
 * `name` is set explicitly so identity survives bundling and Temporal serialisation.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = errorStatus[code];
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
  }

  /** The wire body; an internal error's message is never exposed, a 503 says what is unavailable. */
  toBody(): ErrorBody {
    return {
      error_code: this.code,
      message: this.code === 'internal_error' ? 'Internal server error' : this.message,
      status: this.status,
      errors: this.errors,
    };
  }
}

/** A 422 listing every offending field. */
export function recordInvalid(errors: FieldError[], message = 'Validation failed'): ApiError {
  const summary = errors.map((e) => `${e.path} ${e.message}`).join('; ');
  return new ApiError('record_invalid', summary ? `${message}: ${summary}` : message, { errors });
}

/** A 404 for a record the caller may not see (absent or owned by someone else). */
export function notFound(what: string): ApiError {
  return new ApiError('record_not_found', `${what} not found`);
}

/** A 503 for a request that needs the workflow service (Temporal) when it is absent or unreachable. */
export function temporalUnavailable(consequence: string): ApiError {
  return new ApiError(
    'service_unavailable',
    `The workflow service (Temporal) is unavailable: ${consequence}`,
  );
}
