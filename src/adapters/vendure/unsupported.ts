import { AppError } from '../../lib/errors.js';

/** The error code of every contract call the Vendure adapter does not implement (yet); see docs/vendure.md. */
export const NOT_SUPPORTED_CODE = 'SUITE__NOT_SUPPORTED_BY_HOST';

/** A contract call this host cannot serve: a 501 with a code the client can read, never a 500. */
export function notSupported(call: string): AppError {
  return new AppError(501, NOT_SUPPORTED_CODE, `This shop (Vendure) does not support "${call}" yet.`, {
    meta: { call },
  });
}

/** A function that fails loudly and safely, for contract calls listed as unsupported in docs/vendure.md. */
export function unsupported(call: string): (...args: never[]) => never {
  return () => {
    throw notSupported(call);
  };
}
