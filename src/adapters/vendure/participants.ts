import {
  idsAreEqual,
  LanguageCode,
  type CustomFieldConfig,
  type Order,
  type OrderInterceptor,
  OrderLine,
  type RequestContext,
} from '@vendure/core';
import type { CartLineItem, StoreContext } from '../../contract/index.js';
import { inTransaction, type Executor } from '../../lib/db.js';
import { processLineItem } from '../../host-kit/checkout-kernel.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { customFieldColumn } from './orders.js';
import type { AdapterState } from './state.js';

/**
 * Line payloads in Vendure's order lines: the plugin's line-item processors (event tickets:
 * `payload.participant`, `payload.eventId`) on Vendure's Shop API. A client gives the participant
 * as JSON text in the OrderLine custom field `suiteParticipant` (and, when several events use the
 * product, the event in `suiteEventId`) of `addItemToOrder` / `adjustOrderLine`; the processors run
 * in an OrderInterceptor ('add': a refusal is an `OrderInterceptorError` whose `interceptorError`
 * starts with the plugin's code) and again on the way to ArrangingPayment ('order', order-process.ts,
 * under the plugin's locks). What they shape (the resolved participant, its id, the event) is written
 * back into the two fields, so the placed order carries it and the plugin reads it as
 * `lineItem.payload` (orders.ts, order drafts). Other keys processors add to a payload are not kept.
 */
export const PARTICIPANT_FIELDS = { participant: 'suiteParticipant', eventId: 'suiteEventId' } as const;

export const participantCustomFields: CustomFieldConfig[] = [
  {
    name: PARTICIPANT_FIELDS.participant,
    type: 'text',
    nullable: true,
    public: true,
    description: [
      {
        languageCode: LanguageCode.en,
        value: 'Suite B2B event ticket participant (JSON: firstName, lastName, email or employeeId)',
      },
    ],
  },
  {
    name: PARTICIPANT_FIELDS.eventId,
    type: 'string',
    nullable: true,
    public: true,
    description: [
      { languageCode: LanguageCode.en, value: 'Suite B2B event of the ticket (when several events use the product)' },
    ],
  },
];

/** The two custom fields as a Vendure entity or GraphQL input carries them. */
type LineFields = Partial<Record<(typeof PARTICIPANT_FIELDS)[keyof typeof PARTICIPANT_FIELDS], string | null>>;

function fieldsOf(value: unknown): LineFields {
  return value && typeof value === 'object' ? value : {};
}

/** Invalid JSON stays text: the processor refuses it (participant must be an object). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function payloadOf(participant: unknown, eventId: unknown): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  if (typeof participant === 'string' && participant.trim() !== '') payload.participant = parsed(participant);
  if (typeof eventId === 'string' && eventId !== '') payload.eventId = eventId;
  return payload;
}

/** The plugin's payload of a Vendure order line (entity or input custom fields). */
export function linePayload(customFields: unknown): Record<string, unknown> {
  const fields = fieldsOf(customFields);
  return payloadOf(fields.suiteParticipant, fields.suiteEventId);
}

/** The columns of the payload custom fields of Vendure's OrderLine (participant, event id). */
export function linePayloadColumns(): [participant: string, eventId: string] {
  return [
    customFieldColumn(OrderLine, PARTICIPANT_FIELDS.participant),
    customFieldColumn(OrderLine, PARTICIPANT_FIELDS.eventId),
  ];
}

/** The plugin's payload of an OrderLine row read with knex (the payload columns under their names). */
export function linePayloadOfRow(row: Record<string, unknown>): Record<string, unknown> {
  const [participant, eventId] = linePayloadColumns();
  return payloadOf(row[participant], row[eventId]);
}

/** The custom field values for a processed payload (null: not a ticket, the fields stay as they are). */
export function fieldsOfPayload(payload: Record<string, unknown>): Required<LineFields> | null {
  if (payload.participant === undefined) return null;
  return {
    suiteParticipant: JSON.stringify(payload.participant),
    suiteEventId: typeof payload.eventId === 'string' ? payload.eventId : null,
  };
}

const sameFields = (a: unknown, b: unknown) => JSON.stringify(linePayload(a)) === JSON.stringify(linePayload(b));

/** Runs every processor in turn: the checkout kernel's loop, as on the reference host (label, quantity and payload may change, never identity). */
function runProcessors(
  state: AdapterState,
  ctx: StoreContext,
  item: CartLineItem,
  phase: 'add' | 'order',
  executor: Executor,
): Promise<CartLineItem> {
  return processLineItem(state.registries, executor, ctx, item, phase);
}

/** An AppError of a processor as Vendure shows an interceptor's or a process's refusal: "<code>: <detail>". */
export function refusalText(error: unknown): string {
  if (error instanceof AppError) return `${error.code}: ${error.message}`;
  throw error;
}

interface VariantLike {
  id: string | number;
  name?: string;
}

function itemOf(
  state: AdapterState,
  line: {
    id?: string | number | null;
    variant: VariantLike;
    quantity: number;
    customFields: unknown;
    position: number;
  },
): CartLineItem {
  return {
    id: line.id == null ? newId() : state.ids.toPlugin(line.id),
    type: 'product',
    productId: state.ids.toPlugin(line.variant.id),
    label: line.variant.name ?? '',
    quantity: line.quantity,
    payload: linePayload(line.customFields),
    position: line.position,
  };
}

/**
 * The processors' 'add' phase on Vendure's addItemToOrder / adjustOrderLine (Shop API only). The
 * line is checked with the quantity it will have; what the processors shape is written into the
 * input's custom fields, which Vendure then stores on the line (so the same participant given
 * twice, however spelt, is one line whose quantity the processors refuse).
 */
export function lineItemInterceptor(
  state: () => AdapterState | null,
  storeContextOf: (ctx: RequestContext) => Promise<StoreContext | null>,
): OrderInterceptor {
  async function check(
    ctx: RequestContext,
    order: Order,
    line: { id: string | number | null; variant: VariantLike; quantity: number; customFields: unknown },
    input: unknown,
  ): Promise<string | void> {
    const s = state();
    if (!s || s.registries.lineItemProcessors.length === 0 || line.quantity <= 0) return;
    const storeCtx = await storeContextOf(ctx);
    if (!storeCtx) return;
    const position = order.lines.findIndex((l) => idsAreEqual(l.id, line.id ?? undefined));
    try {
      const processed = await inTransaction(s.db, (trx) =>
        runProcessors(
          s,
          storeCtx,
          itemOf(s, { ...line, position: position < 0 ? order.lines.length : position }),
          'add',
          trx,
        ),
      );
      const fields = fieldsOfPayload(processed.payload);
      if (fields && input && typeof input === 'object') {
        // A new line whose shaped participant is already in the order joins that line: check the quantity it would get.
        const twin =
          line.id == null
            ? order.lines.find(
                (l) => idsAreEqual(l.productVariantId, line.variant.id) && sameFields(l.customFields, fields),
              )
            : undefined;
        if (twin) {
          await inTransaction(s.db, (trx) =>
            runProcessors(
              s,
              storeCtx,
              itemOf(s, {
                id: twin.id,
                variant: line.variant,
                quantity: twin.quantity + line.quantity,
                customFields: twin.customFields,
                position: order.lines.indexOf(twin),
              }),
              'add',
              trx,
            ),
          );
        }
        Object.assign(input, fields);
      }
    } catch (error) {
      return refusalText(error);
    }
  }

  return {
    async willAddItemToOrder(ctx, order, input) {
      const existing = order.lines.find(
        (l) =>
          idsAreEqual(l.productVariantId, input.productVariant.id) && sameFields(l.customFields, input.customFields),
      );
      return check(
        ctx,
        order,
        {
          id: existing?.id ?? null,
          variant: input.productVariant,
          // Vendure (3.x) hands the line's quantity after the add (its own line's quantity plus the
          // added one, constrained to stock), not the increment: adding the line's quantity again
          // refused one more pack under a maximum and named a wrong quantity (decision 0040).
          quantity: input.quantity,
          customFields: input.customFields,
        },
        input.customFields,
      );
    },
    async willAdjustOrderLine(ctx, order, input) {
      const given = fieldsOf(input.customFields);
      const merged = {
        ...fieldsOf(input.orderLine.customFields),
        ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
      };
      return check(
        ctx,
        order,
        {
          id: input.orderLine.id,
          variant: input.orderLine.productVariant,
          quantity: input.quantity,
          customFields: merged,
        },
        input.customFields,
      );
    },
  };
}

/**
 * A Vendure order's lines as the plugin's line items, in Vendure's order, for the processors' 'order'
 * phase on the way to payment and at placement (the checkout kernel's `processLines`, in the plugin's
 * transaction: the event manager locks its events there; an AppError refuses).
 */
export function orderLineItems(state: AdapterState, order: Order): CartLineItem[] {
  return order.lines.map((line, position) =>
    itemOf(state, {
      id: line.id,
      variant: { id: line.productVariantId, name: line.productVariant?.name },
      quantity: line.quantity,
      customFields: line.customFields,
      position,
    }),
  );
}

/**
 * The shaped payloads written back to the lines' custom fields (only lines whose fields change):
 * the placed order then carries the participant as the order hooks and order reads see it.
 */
export function changedLineFields(
  order: Order,
  items: CartLineItem[],
): Array<{ line: OrderLine; fields: Required<LineFields> }> {
  const changes: Array<{ line: OrderLine; fields: Required<LineFields> }> = [];
  order.lines.forEach((line, index) => {
    const fields = fieldsOfPayload(items[index]?.payload ?? {});
    const current = fieldsOf(line.customFields);
    if (
      fields &&
      (fields.suiteParticipant !== (current.suiteParticipant ?? null) ||
        fields.suiteEventId !== (current.suiteEventId ?? null))
    )
      changes.push({ line, fields });
  });
  return changes;
}
