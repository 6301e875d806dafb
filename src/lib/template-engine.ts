import Handlebars from 'handlebars';

export type TemplateEngine = typeof Handlebars;

/**
 * One Handlebars environment with the helpers mail and storefront templates share:
 * eq, ne, and, or, not, formatDate (ISO → date in a locale/time zone), formatMoney (amount, currency).
 */
export function createTemplateEngine(): TemplateEngine {
  const hb = Handlebars.create();
  const args = (values: unknown[]) => values.slice(0, -1);
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('ne', (a: unknown, b: unknown) => a !== b);
  hb.registerHelper('and', (...values: unknown[]) => args(values).every(Boolean));
  hb.registerHelper('or', (...values: unknown[]) => args(values).some(Boolean));
  hb.registerHelper('not', (value: unknown) => !value);
  hb.registerHelper('formatDate', (value: unknown, ...rest: unknown[]) => {
    const [locale, timeZone] = args(rest) as [string?, string?];
    const date = new Date(String(value));
    if (value === null || value === undefined || Number.isNaN(date.getTime())) return '';
    return new Intl.DateTimeFormat(typeof locale === 'string' ? locale : 'en-GB', {
      dateStyle: 'medium',
      timeZone: typeof timeZone === 'string' ? timeZone : 'UTC',
    }).format(date);
  });
  hb.registerHelper('formatMoney', (amount: unknown, currency: unknown) => {
    const value = Number(amount);
    if (!Number.isFinite(value)) return '';
    try {
      return new Intl.NumberFormat('en-GB', {
        style: 'currency',
        currency: typeof currency === 'string' ? currency : 'EUR',
      }).format(value);
    } catch {
      return `${value.toFixed(2)} ${String(currency)}`;
    }
  });
  return hb;
}
