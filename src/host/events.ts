import type { Trx } from '../lib/db.js';
import type { HostEventHandler, HostEventName, HostEvents, HostRuntime } from '../contract/index.js';
import type { HostInternals } from './internals.js';

export interface EventsModule extends Pick<HostRuntime, 'events'> {
  /** Calls every handler of `event` in registration order, inside the caller's transaction. */
  emit<E extends HostEventName>(trx: Trx, event: E, payload: HostEvents[E]): Promise<void>;
}

/** The contract's events: plugins subscribe, host modules emit inside the transaction of the change. */
export function createEventsModule(internals: HostInternals): EventsModule {
  const handlers = internals.registries.eventHandlers;
  return {
    events: {
      on(event, handler) {
        const list = handlers.get(event) ?? [];
        list.push(handler as HostEventHandler<HostEventName>);
        handlers.set(event, list);
      },
    },
    async emit(trx, event, payload) {
      for (const handler of handlers.get(event) ?? []) await (handler as HostEventHandler<typeof event>)(trx, payload);
    },
  };
}
