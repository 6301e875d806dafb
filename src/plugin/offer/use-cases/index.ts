import type { HostRuntime, StoreContext } from '../../../contract/index.js';
import type { Criteria } from '../../../lib/criteria.js';
import type { Executor } from '../../../lib/db.js';
import { expireDue, type OfferState } from '../repository.js';
import { type OfferView } from '../views.js';
import { viewOffer } from './access.js';
import { acceptOffer, declineOffer, requestExtension } from './decide.js';
import { listOffers, listStates, offerDocument, referenceProduct } from './read.js';
import { removeOffer } from './remove.js';
import { requestFromCart, requestFromItems, type OfferRequestInput } from './request.js';
import { addProducts, salesUpdate, type SalesUpdateInput } from './sales-edit.js';
import { sendOffer } from './send.js';
import {
  diffOfVersions,
  listVersions,
  readThread,
  readVersion,
  unreadSummary,
  versionDocument,
} from './conversation.js';
import {
  addPositions,
  postMessage,
  reviseAsCustomer,
  type CustomerRevisionInput,
  type PositionInput,
} from './negotiate.js';
import { remindExpiring } from './reminders.js';

export { OFFER_ORIGIN } from './decide.js';

/**
 * The offer use cases bound to the host, for routes, storefront pages and jobs. Each one lives in
 * its own module of this folder; this is only the table of contents.
 */
export class OfferUseCases {
  constructor(private readonly host: HostRuntime) {}

  // reading
  view = (ctx: StoreContext, id: string, executor?: Executor): Promise<OfferView> =>
    viewOffer(this.host, ctx, id, executor);
  list = (ctx: StoreContext, criteria: Criteria): Promise<{ total: number; data: OfferView[] }> =>
    listOffers(this.host, ctx, criteria);
  states = (criteria: Criteria): Promise<{ total: number; data: OfferState[] }> => listStates(this.host, criteria);
  document = (ctx: StoreContext, documentId: string) => offerDocument(this.host, ctx, documentId);
  referenceProduct = (
    ctx: StoreContext,
    productId: string,
    customerId: string | undefined,
  ): Promise<Record<string, unknown>> => referenceProduct(this.host, ctx, productId, customerId);
  // the customer asks
  requestFromCart = (ctx: StoreContext, input: OfferRequestInput): Promise<OfferView> =>
    requestFromCart(this.host, ctx, input);
  requestFromItems = (ctx: StoreContext, input: Parameters<typeof requestFromItems>[2]): Promise<OfferView> =>
    requestFromItems(this.host, ctx, input);
  // the sales side prices, mails, deletes
  salesUpdate = (ctx: StoreContext, id: string, input: SalesUpdateInput): Promise<OfferView> =>
    salesUpdate(this.host, ctx, id, input);
  addProducts = (ctx: StoreContext, id: string, items: Parameters<typeof addProducts>[3]): Promise<void> =>
    addProducts(this.host, ctx, id, items);
  send = (ctx: StoreContext, id: string, message: string | null): Promise<{ documentId: string; recipient: string }> =>
    sendOffer(this.host, ctx, id, message);
  remove = (ctx: StoreContext, id: string): Promise<void> => removeOffer(this.host, ctx, id);
  // the customer decides
  accept = (ctx: StoreContext, id: string, comment: string | null, version?: number): Promise<OfferView> =>
    acceptOffer(this.host, ctx, id, comment, version);
  decline = (ctx: StoreContext, id: string, comment: string | null): Promise<OfferView> =>
    declineOffer(this.host, ctx, id, comment);
  requestExtension = (ctx: StoreContext, id: string, comment: string | null): Promise<void> =>
    requestExtension(this.host, ctx, id, comment);
  // negotiation
  addPositions = (ctx: StoreContext, id: string, positions: PositionInput[]): Promise<OfferView> =>
    addPositions(this.host, ctx, id, positions);
  reviseAsCustomer = (ctx: StoreContext, id: string, input: CustomerRevisionInput): Promise<OfferView> =>
    reviseAsCustomer(this.host, ctx, id, input);
  postMessage = (ctx: StoreContext, id: string, body: string) => postMessage(this.host, ctx, id, body);
  thread = (ctx: StoreContext, id: string) => readThread(this.host, ctx, id);
  unread = (ctx: StoreContext) => unreadSummary(this.host, ctx);
  versions = (ctx: StoreContext, id: string) => listVersions(this.host, ctx, id);
  version = (ctx: StoreContext, id: string, version: number) => readVersion(this.host, ctx, id, version);
  diff = (ctx: StoreContext, id: string, version: number, against?: number) =>
    diffOfVersions(this.host, ctx, id, version, against);
  versionDocument = (ctx: StoreContext, id: string, version: number) => versionDocument(this.host, ctx, id, version);
  // the jobs
  expireOverdue = (): Promise<number> => expireDue(this.host.db);
  remindExpiring = (): Promise<number> => remindExpiring(this.host);
}
