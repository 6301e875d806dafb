import type { ContextEnricher, HostRuntime } from '../../contract/index.js';
import { nowMs } from '../../lib/time.js';

export interface EventSettings {
  registrationStatuses: string[];
  categoryId: string | null;
  categoryUrl: string | null;
  languages: string[];
  reminderHoursBefore: number;
}

const FRESH_MS = 2000;
const DEFAULTS: EventSettings = {
  registrationStatuses: ['published'],
  categoryId: null,
  categoryUrl: null,
  languages: ['de', 'en'],
  reminderHoursBefore: 24,
};

/**
 * The plugin settings the event manager reads. Line-item processors run inside the cart's and the
 * order's transaction, where reading settings on the root connection would wait forever on SQLite's
 * single connection; so a context enricher refreshes this copy before every request's work starts
 * (at most every 2 s), and processors read the copy.
 */
export class EventSettingsCache {
  private value: EventSettings | null = null;
  private loadedAt = 0;
  private loading: Promise<EventSettings> | null = null;

  constructor(private readonly host: HostRuntime) {}

  /** Fresh settings; call outside transactions. */
  async load(): Promise<EventSettings> {
    const age = nowMs() - this.loadedAt;
    // A clock moved back (tests put it back after moving it) makes the copy stale, not fresh for longer.
    if (this.value && age >= 0 && age < FRESH_MS) return this.value;
    this.loading ??= (async () => {
      try {
        const all = await this.host.config.all();
        const value: EventSettings = {
          registrationStatuses: Array.isArray(all.eventRegistrationStatuses)
            ? all.eventRegistrationStatuses.map(String)
            : DEFAULTS.registrationStatuses,
          categoryId: typeof all.eventCategoryId === 'string' && all.eventCategoryId ? all.eventCategoryId : null,
          categoryUrl: typeof all.eventCategoryUrl === 'string' && all.eventCategoryUrl ? all.eventCategoryUrl : null,
          languages: Array.isArray(all.eventLanguages) ? all.eventLanguages.map(String) : DEFAULTS.languages,
          reminderHoursBefore:
            typeof all.eventReminderHoursBefore === 'number'
              ? all.eventReminderHoursBefore
              : DEFAULTS.reminderHoursBefore,
        };
        this.value = value;
        this.loadedAt = nowMs();
        return value;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /** The last loaded settings, for code running inside a transaction. */
  current(): EventSettings {
    return this.value ?? DEFAULTS;
  }

  enricher(): ContextEnricher {
    return async () => {
      await this.load();
    };
  }
}
