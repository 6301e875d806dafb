import { defineStoreRoute, type HostRuntime } from '../../contract/index.js';
import { AppError, Errors } from '../../lib/errors.js';
import { objectSchema, pathParams, successResponse } from '../../lib/schemas.js';
import { TAG } from './context.js';
import { representativeName, representativeOfCustomer } from './repository.js';
import { declaredCustomer } from '../declared.js';

export const PRODUCT_REQUEST_MAIL = 'product-request';

const productRequestBody = objectSchema(
  {
    comment: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description: 'The question about the product.',
    },
    quantity: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: 'The quantity the question is about, if any.',
    },
  },
  ['comment'],
);

/** The real product's "ask your sales representative about this product": a mail to the representative. */
export function productRequestRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'POST',
      path: '/product-request/{productId}/send',
      operationId: 'sendProductRequest',
      summary:
        'Asks the sales representative of the customer acted for about a product: a mail to the representative with the question and who asks.',
      description:
        "A product the caller may not see is a 404 like an unknown id; a customer nobody looks after is a 400 SUITE__NO_SALES_REPRESENTATIVE. The answer comes by mail from the representative (the mail names the asker's e-mail address).",
      tags: [TAG],
      auth: 'login',
      needsCustomer: true,
      permission: null,
      rateLimit: { name: 'product-request', limit: 30, windowSeconds: 3600, by: ['ip'] },
      schemas: { params: pathParams('productId'), body: productRequestBody, responses: { 200: successResponse } },
      async handler({ ctx, params, body }) {
        const customer = declaredCustomer(ctx);
        const [product] = await host.catalog.visibleProducts(host.db, ctx, [params.productId]);
        if (!product) throw Errors.notFound('Product', params.productId);
        const representative = await representativeOfCustomer(host.db, customer.id);
        if (!representative)
          throw new AppError(
            400,
            'SUITE__NO_SALES_REPRESENTATIVE',
            'No sales representative looks after this customer.',
          );
        await host.mail.enqueue(host.db, {
          template: PRODUCT_REQUEST_MAIL,
          to: representative.email,
          salesChannelId: ctx.salesChannel.id,
          data: {
            representativeName: representativeName(representative),
            askedBy: { name: ctx.actor.name, email: ctx.actor.email ?? customer.email },
            customer: { company: customer.company, customerNumber: customer.customerNumber },
            product: { number: product.productNumber, name: product.name },
            quantity: body.quantity ?? null,
            comment: body.comment,
          },
        });
        return { success: true };
      },
    }),
  ];
}
