/**
 * The schema validator's problems as a person reads them next to a form field: a sentence that says
 * what to enter, never a JSON pointer or a regular expression. The API keeps its technical `detail`
 * (for developers) and carries the rule in the error's `meta` (`rule` plus the validator's
 * parameters, src/lib/validation.ts); forms (the console) show `sentenceOfRule(meta)` instead.
 */
export interface RuleMeta {
  rule: string;
  [param: string]: unknown;
}

/** Patterns the declarations use, as what they ask for. */
const PATTERNS: Record<string, string> = {
  '\\S': 'Fill in this field: spaces alone are not enough.',
  '^[^>]*[^>\\s][^>]*$': 'Fill in this field (without ">").',
  '^[A-Z]{3}$': 'Enter a three-letter currency code in capitals, such as EUR.',
  '^[A-Z]{2}$': 'Enter a two-letter country code in capitals, such as DE.',
  '^[A-Za-z]{2}$': 'Enter a two-letter country code, such as DE.',
  '^[0-9a-f]{32}$': 'Choose an existing entry: this is not a valid id.',
  '^\\d{4}-\\d{2}-\\d{2}$': 'Enter a date as YYYY-MM-DD, such as 2026-12-31.',
  '^\\d{4}-\\d{2}$': 'Enter a month as YYYY-MM, such as 2026-12.',
  '^https?://': 'Enter a web address starting with https://.',
};

const FORMATS: Record<string, string> = {
  email: 'Enter an e-mail address, such as name@example.com.',
  date: 'Enter a date as YYYY-MM-DD, such as 2026-12-31.',
  'date-time': 'Enter a date and time, such as 2026-12-31T09:30:00Z.',
  uri: 'Enter a full web address, such as https://example.com.',
};

const TYPES: Record<string, string> = {
  integer: 'Enter a whole number.',
  number: 'Enter a number.',
  boolean: 'Choose yes or no.',
  string: 'Enter text.',
  array: 'Enter a list.',
  object: 'Fill in the fields of this part.',
};

function num(value: unknown): string {
  return typeof value === 'number' ? String(value) : '?';
}

function list(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => `"${String(value)}"`).join(', ') : '';
}

/** One sentence for a validation rule a value broke, or null when the rule has no sentence of its own. */
export function sentenceOfRule(meta: unknown): string | null {
  if (!meta || typeof meta !== 'object' || typeof (meta as RuleMeta).rule !== 'string') return null;
  const m = meta as RuleMeta;
  switch (m.rule) {
    case 'required':
      return 'Fill in this field.';
    case 'format':
      return FORMATS[String(m.format)] ?? 'This is not in the form the field takes.';
    case 'pattern':
      return PATTERNS[String(m.pattern)] ?? 'Use only the characters and form this field takes.';
    case 'minLength':
      return m.limit === 1 ? 'Fill in this field.' : `Enter at least ${num(m.limit)} characters.`;
    case 'maxLength':
      return `Enter at most ${num(m.limit)} characters.`;
    case 'minimum':
      return `Enter ${num(m.limit)} or more.`;
    case 'exclusiveMinimum':
      return `Enter a number above ${num(m.limit)}.`;
    case 'maximum':
      return `Enter ${num(m.limit)} or less.`;
    case 'exclusiveMaximum':
      return `Enter a number below ${num(m.limit)}.`;
    case 'multipleOf':
      return `Enter a multiple of ${num(m.multipleOf)}.`;
    case 'type':
      return TYPES[String(m.type).split(',')[0]!] ?? null;
    case 'enum':
      return `Choose one of ${list(m.allowedValues)}.`;
    case 'const':
      return `Only "${String(m.allowedValue)}" is possible here.`;
    case 'minItems':
      return m.limit === 1 ? 'Enter at least one entry.' : `Enter at least ${num(m.limit)} entries.`;
    case 'maxItems':
      return `Enter at most ${num(m.limit)} entries.`;
    case 'uniqueItems':
      return 'Enter each entry once.';
    case 'anyOf':
    case 'oneOf':
    case 'not':
      return 'This value is not accepted here.';
    case 'additionalProperties':
      return null;
    default:
      return null;
  }
}
