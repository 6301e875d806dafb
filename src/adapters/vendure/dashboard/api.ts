/**
 * The Suite B2B Admin API (REST, /b2b-admin-api on the Vendure server) called from the Dashboard with
 * the Dashboard's own Vendure session: the token the Dashboard keeps (`LS_KEY_SESSION_TOKEN`) as a
 * bearer token, and Vendure's session cookie where the shop uses cookies. The plugin's Admin API
 * accepts exactly that session (src/adapters/vendure/store-api.ts): the `SuiteB2BAdmin` permission or
 * SuperAdmin. The Dashboard is assumed on the Vendure server's origin (DashboardPlugin), as the paths are.
 */
import { LS_KEY_SESSION_TOKEN } from '@vendure/dashboard';

export const ADMIN_API = '/b2b-admin-api';
export const CONSOLE = '/b2b-admin';
export const ADMIN_PERMISSION = 'SuiteB2BAdmin';
export const READ_ONLY_PERMISSION = 'SuiteB2BAdminReadOnly';

export interface ApiErrorItem {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string };
}

/** A refusal of the Admin API, with its JSON:API errors (code, detail, source.pointer). */
export class ApiError extends Error {
  readonly errors: ApiErrorItem[];

  constructor(
    readonly status: number,
    errors: ApiErrorItem[],
  ) {
    // The API names ids in the plugin's form: the pages show Vendure's.
    const readable = errors.map((e) => ({
      ...e,
      detail: e.detail?.replace(/"([0-9a-f]{32})"/g, (_, id: string) => `"${toVendureId(id)}"`),
    }));
    super(readable.map((e) => e.detail ?? e.title ?? e.code).join(' ') || `The B2B Admin API answered ${status}.`);
    this.errors = readable;
  }

  /** The message of the error that points at `field` (`/field`), if any. */
  field(field: string): string | undefined {
    return this.errors.find((e) => e.source?.pointer === `/${field}`)?.detail;
  }
}

export interface Resource<A> {
  id: string;
  type: string;
  attributes: A;
}

export interface ResourceList<A> {
  data: Array<Resource<A>>;
  meta: { total: number };
}

export async function b2bApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = localStorage.getItem(LS_KEY_SESSION_TOKEN);
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${ADMIN_API}${path}`, {
    method,
    headers,
    credentials: 'include',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as { errors?: ApiErrorItem[] } | null;
  if (!res.ok) throw new ApiError(res.status, json?.errors ?? []);
  return json as T;
}

export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Vendure ids ⇄ the plugin's ids (src/adapters/vendure/ids.ts): an auto-increment id is its decimal
 * digits left-padded to 32, a UUID loses its dashes. The pages show and take Vendure's ids.
 */
export function toPluginId(vendureId: string): string {
  const id = vendureId.trim();
  return /^\d{1,32}$/.test(id) ? id.padStart(32, '0') : id.replace(/-/g, '').toLowerCase();
}

export function toVendureId(pluginId: string | null | undefined): string {
  if (!pluginId) return '';
  if (/^0*\d{1,15}$/.test(pluginId) && pluginId.length === 32) return String(Number(pluginId));
  if (/^[0-9a-f]{32}$/.test(pluginId))
    return `${pluginId.slice(0, 8)}-${pluginId.slice(8, 12)}-${pluginId.slice(12, 16)}-${pluginId.slice(16, 20)}-${pluginId.slice(20)}`;
  return pluginId;
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
}

export function formatPrice(value: number, currency: string | null): string {
  return currency
    ? new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value)
    : new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}
