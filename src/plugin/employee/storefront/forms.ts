import { AppError } from '../../../lib/errors.js';
import type { StorefrontPage } from '../../../contract/index.js';
import { hashParam, nameSchema, passwordSchema } from '../common.js';

export type PageResult = Awaited<ReturnType<StorefrontPage['handler']>>;
export type Form = Record<string, unknown>;

/** Where a successful link sends the employee, logged in. */
export const ACCOUNT_PAGE = '/account';

const SECRET = new RegExp(hashParam.pattern);

export function isSecret(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= hashParam.minLength &&
    value.length <= hashParam.maxLength &&
    SECRET.test(value)
  );
}

export function text(form: Form, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Passwords are taken as typed: spaces count. */
export function secretText(form: Form, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/** The Store API's password rule (passwordSchema), plus the repeat field of the form. */
export function newPasswordProblem(password: string, repeat: string): string | null {
  if (password.length < passwordSchema.minLength)
    return `Choose a password of at least ${passwordSchema.minLength} characters.`;
  if (password.length > passwordSchema.maxLength)
    return `The password may have at most ${passwordSchema.maxLength} characters.`;
  if (password !== repeat) return 'The two passwords differ. Please type the same password twice.';
  return null;
}

export function nameProblem(label: string, value: string): string | null {
  if (value.length < nameSchema.minLength) return `Please enter your ${label}.`;
  if (value.length > nameSchema.maxLength) return `Your ${label} may have at most ${nameSchema.maxLength} characters.`;
  return null;
}

export const PASSWORD_RULES = { minLength: passwordSchema.minLength, maxLength: passwordSchema.maxLength };

export type LinkKind = 'invitation' | 'login' | 'recovery';
export type LinkProblem = 'unknown' | 'expired' | 'used' | 'inactive';

const KIND_TEXT: Record<
  LinkKind,
  { title: string; what: string; next: string; nextLink: { href: string; label: string } | null }
> = {
  invitation: {
    title: 'Invitation not valid',
    what: 'invitation link',
    next: 'Please ask your company to invite you again.',
    nextLink: null,
  },
  login: {
    title: 'Login link not valid',
    what: 'login link',
    next: 'Request a new login link, or log in with your password.',
    nextLink: { href: '/account/login', label: 'Go to the login' },
  },
  recovery: {
    title: 'Reset link not valid',
    what: 'password reset link',
    next: 'Please request a new reset link.',
    nextLink: { href: '/account/login', label: 'Go to the login' },
  },
};

const PROBLEM_TEXT: Record<LinkProblem, (what: string) => string> = {
  unknown: (what) =>
    `This ${what} is not known. It may have been replaced by a newer one, or the address was not copied completely.`,
  expired: (what) => `This ${what} has expired.`,
  used: (what) => `This ${what} was used already; it works only once.`,
  inactive: () => 'The account this link is for is not active in this shop.',
};

/** The friendly page for a link that cannot be used: 404 for one that never existed, 400 otherwise. Nothing is changed. */
export function linkProblemPage(kind: LinkKind, problem: LinkProblem): PageResult {
  const text = KIND_TEXT[kind];
  return {
    template: 'employee-link-invalid',
    status: problem === 'unknown' ? 404 : 400,
    data: {
      title: text.title,
      message: PROBLEM_TEXT[problem](text.what),
      next: text.next,
      nextLink: text.nextLink,
      problem,
    },
  };
}

/** A 400 from a service becomes a message on the form (its transaction rolled back); anything else propagates. */
export async function formErrors<T>(work: () => Promise<T>): Promise<{ ok: T } | { error: AppError }> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return { error };
    throw error;
  }
}
