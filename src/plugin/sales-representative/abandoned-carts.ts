import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import { storeListOf } from '../../lib/store-list.js';
import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { declaredRepresentative } from '../declared.js';
import { TAG } from './context.js';
import { assignedCustomers } from './repository.js';
import { abandonedCartsBody, abandonedCartsResponse } from './schemas.js';
import { nowMs } from '../../lib/time.js';

/** The carts the representative's customers filled and left, to follow up on. */
export function abandonedCartRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/sales-representative/abandoned-carts',
      operationId: 'listSalesRepresentativeAbandonedCarts',
      summary:
        'Carts of the assigned customers that hold lines and were neither ordered nor changed for `idleHours`, most recently changed first.',
      tags: [TAG],
      auth: 'login',
      actors: ['salesRepresentative'],
      permission: null,
      schemas: { body: abandonedCartsBody, responses: { 200: abandonedCartsResponse } },
      async handler({ ctx, body }) {
        if (!host.cart.abandoned)
          throw new AppError(501, 'SUITE__NOT_SUPPORTED', 'This shop does not list abandoned carts.', {
            meta: { call: 'cart.abandoned' },
          });
        const rep = declaredRepresentative(ctx);
        const customers = new Map(
          (await assignedCustomers(host, host.db, rep.id, ctx.salesChannel.id)).map((c) => [c.id, c]),
        );
        const idleSince = new Date(nowMs() - body.idleHours * 3_600_000);
        const carts = await host.cart.abandoned(host.db, [...customers.keys()], idleSince, body.limit);
        return storeListOf(
          carts.map((cart) => {
            const customer = customers.get(cart.customerId)!;
            return {
              id: createHash('sha256').update(cart.token).digest('hex').slice(0, 32),
              customerId: cart.customerId,
              customerNumber: customer.customerNumber,
              company: customer.company,
              buyer: cart.actor,
              updatedAt: cart.updatedAt,
              quantity: cart.lineItems.reduce((sum, line) => sum + line.quantity, 0),
              lineItems: cart.lineItems.map((line) => ({
                productId: line.productId,
                label: line.label,
                quantity: line.quantity,
              })),
            };
          }),
        );
      },
    }),
  ];
}
