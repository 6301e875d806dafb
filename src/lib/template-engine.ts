import Handlebars from 'handlebars';

export type TemplateEngine = typeof Handlebars;

/**
 * One Handlebars environment with the helpers mail and storefront templates share:
 * eq, ne, and, or, not, formatDate (ISO → date in a locale/time zone), formatMoney (amount, currency).
 * Without a locale argument they format in the template data's `locale` (the console sets the
 * operator's), else en-GB.
 */
export function createTemplateEngine(): TemplateEngine {
  const hb = Handlebars.create();
  const args = (values: unknown[]) => values.slice(0, -1);
  const localeOfData = (values: unknown[]): string => {
    const options = values.at(-1) as { data?: { root?: { locale?: unknown } } } | undefined;
    const locale = options?.data?.root?.locale;
    return typeof locale === 'string' ? locale : 'en-GB';
  };
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('ne', (a: unknown, b: unknown) => a !== b);
  hb.registerHelper('and', (...values: unknown[]) => args(values).every(Boolean));
  hb.registerHelper('or', (...values: unknown[]) => args(values).some(Boolean));
  hb.registerHelper('not', (value: unknown) => !value);
  /** Joins its arguments into one string, e.g. an element id made of a prefix: (concat prefix "-daysNet"). */
  hb.registerHelper('concat', (...values: unknown[]) => args(values).map(String).join(''));
  hb.registerHelper('formatDate', (value: unknown, ...rest: unknown[]) => {
    const [locale, timeZone] = args(rest) as [string?, string?];
    const date = new Date(String(value));
    if (value === null || value === undefined || Number.isNaN(date.getTime())) return '';
    return new Intl.DateTimeFormat(typeof locale === 'string' ? locale : localeOfData(rest), {
      dateStyle: 'medium',
      timeZone: typeof timeZone === 'string' ? timeZone : 'UTC',
    }).format(date);
  });
  hb.registerHelper('formatMoney', (amount: unknown, currency: unknown, ...rest: unknown[]) => {
    const value = Number(amount);
    if (!Number.isFinite(value)) return '';
    try {
      return new Intl.NumberFormat(localeOfData(rest), {
        style: 'currency',
        currency: typeof currency === 'string' ? currency : 'EUR',
      }).format(value);
    } catch {
      return `${value.toFixed(2)} ${String(currency)}`;
    }
  });
  return hb;
}
