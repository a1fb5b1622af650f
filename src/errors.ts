/**
 * The error catalog. Every failed request answers `{code, message, issues}`
 * with one of these codes; nothing else reaches a client.
 */

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorIssue {
  message: string;
  path?: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  issues: ErrorIssue[];
  /** Rate limits only: the hosted API's own 429 body field, for clients written against it. */
  error?: string;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: ErrorIssue[] = [],
    /** Extra response headers, e.g. `x-should-retry: false` on conflicts. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return this.code === 'TOO_MANY_REQUESTS'
      ? { code: this.code, message: this.message, issues: this.issues, error: this.message }
      : { code: this.code, message: this.message, issues: this.issues };
  }
}

/** 429 with the hosted API's wording and both retry headers the SDK reads. */
export function tooManyRequests(what: string, retryAfterMs: number, resetAt: number, limit: number): ApiError {
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new ApiError('TOO_MANY_REQUESTS', `${what} exceeded. Try again in ${seconds} seconds.`, [], {
    'retry-after': String(seconds),
    'retry-after-ms': String(retryAfterMs),
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
  });
}

/** The router's bound on one path parameter (author external ids may be 200 characters, percent-encoded up to 9 bytes each). */
export const MAX_PATH_PARAM_LENGTH = 2000;

export const pathParameterTooLong = () =>
  new ApiError('BAD_REQUEST', `A path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters`, [{ message: 'Path parameter too long', path: '/params' }]);

export const badRequest = (message: string, issues: ErrorIssue[] = []) => new ApiError('BAD_REQUEST', message, issues);

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);

export const conflict = (message: string, issues: ErrorIssue[] = []) =>
  new ApiError('CONFLICT', message, issues, { 'x-should-retry': 'false' });
