/**
 * The one error body of the whole API:
 * {"errors":[{"status":"400","code":"SUITE__…","title":"…","detail":"…","source":{"pointer":"/field"}}]}
 */
export interface ErrorObject {
  status: string;
  code: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  meta?: Record<string, unknown>;
}

export interface ErrorBody {
  errors: ErrorObject[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? 'Error';
}

export interface AppErrorOptions {
  pointer?: string;
  parameter?: string;
  meta?: Record<string, unknown>;
  /** Several problems at once (validation); the first one's code is the error's code. */
  details?: ErrorObject[];
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly options: AppErrorOptions;

  constructor(status: number, code: string, detail: string, options: AppErrorOptions = {}) {
    super(detail);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.options = options;
  }

  /** The seconds a 429/503 asks clients to wait (`meta.retryAfter`), else `fallback`. */
  retryAfter(fallback?: number): number | undefined {
    const value = this.options.meta?.retryAfter;
    return typeof value === 'number' ? value : fallback;
  }

  toBody(): ErrorBody {
    if (this.options.details?.length) return { errors: this.options.details };
    const error: ErrorObject = {
      status: String(this.status),
      code: this.code,
      title: statusTitle(this.status),
      detail: this.message,
    };
    if (this.options.pointer !== undefined || this.options.parameter !== undefined) {
      error.source = {};
      if (this.options.pointer !== undefined) error.source.pointer = this.options.pointer;
      if (this.options.parameter !== undefined) error.source.parameter = this.options.parameter;
    }
    if (this.options.meta) error.meta = this.options.meta;
    return { errors: [error] };
  }
}

/** Constructors for the statuses the API gives a meaning to. */
export const Errors = {
  badRequest: (code: string, detail: string, options?: AppErrorOptions) => new AppError(400, code, detail, options),
  /** Not logged in, or the token is missing, invalid, expired or revoked. */
  unauthorized: (detail = 'A valid login is required.', code = 'SUITE__UNAUTHORIZED') =>
    new AppError(401, code, detail),
  forbidden: (detail = 'You are not allowed to do this.', code = 'SUITE__FORBIDDEN') => new AppError(403, code, detail),
  /** Absent, or belonging to another tenant: the answer never tells which. */
  notFound: (entity: string, id?: string) =>
    new AppError(
      404,
      'SUITE__NOT_FOUND',
      id ? `${entity} with id "${id}" was not found.` : `${entity} was not found.`,
      {
        meta: { entity },
      },
    ),
  conflict: (detail = 'A concurrent request changed this resource; retry.', code = 'SUITE__CONFLICT') =>
    new AppError(409, code, detail),
  unprocessable: (code: string, detail: string) => new AppError(422, code, detail),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(429, 'SUITE__RATE_LIMITED', `Too many requests; retry in ${retryAfterSeconds} seconds.`, {
      meta: { retryAfter: retryAfterSeconds },
    }),
  /** The database cannot serve the request now (unreachable, silent, overloaded); retry later. */
  serviceUnavailable: (retryAfterSeconds: number) =>
    new AppError(
      503,
      'SUITE__SERVICE_UNAVAILABLE',
      `The service is temporarily unavailable; retry in ${retryAfterSeconds} seconds.`,
      {
        meta: { retryAfter: retryAfterSeconds },
      },
    ),
};

export function internalErrorBody(requestId: string): ErrorBody {
  return {
    errors: [
      {
        status: '500',
        code: 'SUITE__INTERNAL_ERROR',
        title: statusTitle(500),
        detail: 'An unexpected error occurred.',
        meta: { requestId },
      },
    ],
  };
}
