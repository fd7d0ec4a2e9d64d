/** Maps every failure to the one error body; nothing a client sends turns into a 5xx. */
import { ApiError, temporalUnavailable } from '@checkout/core';
import { databaseErrorKind } from '@checkout/db';
import { isGrpcDeadlineError, isGrpcServiceError, ServiceError } from '@temporalio/client';
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

/** Turns any thrown value into an ApiError (the one mapping from failures to HTTP statuses). */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as {
    status?: number;
    statusCode?: number;
    type?: string;
    expose?: boolean;
    message?: string;
  };
  const status = e?.status ?? e?.statusCode;
  if (e?.type === 'entity.too.large' || status === 413) {
    return new ApiError('payload_too_large', 'The request body is too large');
  }
  if (e?.type === 'request.aborted' || e?.type === 'request.size.invalid') {
    return new ApiError('bad_request', 'The request body could not be read');
  }
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new ApiError('unsupported_media_type', 'The request body encoding is not supported');
  }
  if (status === 405) return new ApiError('method_not_allowed', 'Method not allowed on this route');
  if (status === 501) return new ApiError('method_not_allowed', 'Method not implemented');
  if (typeof status === 'number' && status >= 400 && status < 500 && e?.expose) {
    return new ApiError('bad_request', e.message ?? 'Bad request');
  }
  if (databaseErrorKind(error) === 'unavailable') {
    return new ApiError('service_unavailable', 'The database is unavailable; retry later', { cause: error });
  }
  if (isTemporalUnreachable(error)) {
    const unavailable = temporalUnavailable('retry later');
    return new ApiError(unavailable.code, unavailable.message, { cause: error });
  }
  return new ApiError('internal_error', 'Internal server error', { cause: error });
}

// gRPC status codes of a server that cannot be reached or did not answer in time.
const grpcUnavailable = 14;
const grpcDeadlineExceeded = 4;

/** True when a Temporal call failed because the server could not be reached, not because it refused. */
function isTemporalUnreachable(error: unknown): boolean {
  if (isGrpcDeadlineError(error)) return true;
  const grpc = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(grpc) && (grpc.code === grpcUnavailable || grpc.code === grpcDeadlineExceeded);
}

/** Outermost middleware: catches, logs 5xx with their cause, writes the error body. */
export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404)
          throw new ApiError('route_not_found', `No route for ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405 || ctx.status === 501) {
          throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`, {
            headers: { Allow: String(ctx.response.get('Allow')) },
          });
        }
      }
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500) {
        ctx.state.log?.error({ err: apiError.cause ?? apiError }, 'request failed');
      }
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.body = apiError.toBody();
    }
  };
}
