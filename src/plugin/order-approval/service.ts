import type { HostRuntime, PriceLine, ProductRecord, SalesChannel, StoreContext } from '../../host/contract.js';
import { AppError, Errors } from '../../lib/errors.js';
import { inTransaction, isDuplicateKeyError, writeJson, type Executor, type Trx } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fromMinor } from '../../lib/money.js';
import { addSeconds, fromDbTime, nowDb, toDbTime } from '../../lib/time.js';
import { requireCustomer } from '../employee/common.js';
import { findEmployees } from '../budget/employee-directory.js';
import { applicableBudgetIds } from '../budget/repository.js';
import { budgetExceededError, evaluateBudgets } from '../budget/service.js';
import {
  approvalCount,
  approverEntries,
  canView,
  isApprover,
  isCompanyAdmin,
  isRequester,
  keyOf,
  requesterKey,
  requiredApprovals,
  type ApproverEntry,
} from './approvers.js';
import { approvalMailData, enqueueApprovalMail, MAIL } from './mail.js';
import {
  ACTIVITIES,
  APPROVAL_BUDGETS,
  APPROVALS,
  DECISIONS,
  LINE_ITEMS,
  REMINDERS,
  addActivity,
  approvalLines,
  decisionsOf,
  getApproval,
  loadSettings,
  totalsOf,
  type ApprovalLine,
  type ApprovalRow,
  type ExecutionResult,
} from './repository.js';

export const APPROVAL_INTERCEPTOR = 'order-approval';
/** Payment methods that need nothing more from the customer after the order. */
const OFFLINE_PAYMENT_METHODS = new Set(['invoice', 'prepayment', 'cash-on-delivery']);

export interface RefreshResult {
  isValid: boolean;
  isBlocked: boolean;
  blockReasons: string[];
  hasChanges: boolean;
  changes: Array<Record<string, unknown>>;
  requiresReapproval: boolean;
}

interface LineQuote {
  product: ProductRecord | null;
  unitNet: number | null;
  totalNet: number | null;
  taxRateBp: number | null;
  outOfStock: boolean;
}

const notAllowed = (detail = 'You are not allowed to do this with this order approval.') => Errors.forbidden(detail, 'SUITE__ORDER_APPROVAL_NOT_ALLOWED');
const lineSignature = (lines: ApprovalLine[]) => lines.map((l) => `${l.id}:${l.productId}:${l.quantity}`).join('|');
const RETRY = Symbol('retry');

export class OrderApprovalService {
  constructor(private readonly host: HostRuntime) {}

  private get db() {
    return this.host.db;
  }

  async salesChannelOf(executor: Executor, approval: ApprovalRow, fallback?: SalesChannel): Promise<SalesChannel> {
    if (fallback && fallback.id === approval.salesChannelId) return fallback;
    const channel = await this.host.customers.salesChannel(executor, approval.salesChannelId);
    if (channel) return channel;
    if (fallback) return fallback;
    throw new Error(`sales channel ${approval.salesChannelId} of approval ${approval.id} is gone`);
  }

  /** Loads an approval of the caller's customer (404 otherwise) that the caller may see (403 otherwise). */
  async visible(ctx: StoreContext, id: string, executor: Executor = this.db, lock = false): Promise<ApprovalRow> {
    const customer = requireCustomer(ctx);
    const approval = await getApproval(executor, customer.id, id, lock);
    if (!approval) throw Errors.notFound('Order approval', id);
    if (!canView(ctx, approval)) throw notAllowed('You are not allowed to see this order approval.');
    return approval;
  }

  // ---- create ------------------------------------------------------------------------------

  async create(ctx: StoreContext, body: { cartToken: string; customerComment?: string | null; billingAddressId?: string | null; shippingAddressId?: string | null }): Promise<string> {
    const customer = requireCustomer(ctx);
    await ctx.ruleIds();
    const cart = await this.host.cart.get(this.db, body.cartToken);
    if (!cart || cart.customerId !== customer.id)
      throw Errors.badRequest('SUITE__CART_NOT_FOUND', 'There is no cart with this token for your account.', { pointer: '/cartToken' });
    if (cart.lineItems.length === 0) throw Errors.badRequest('SUITE__CART_EMPTY', 'The cart is empty.', { pointer: '/cartToken' });
    const priced = await this.host.cart.price(ctx, cart);
    const pricedIds = new Set(priced.lines.map((l) => l.lineItemId));
    const unavailable = cart.lineItems.find((l) => !pricedIds.has(l.id));
    if (unavailable)
      throw Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', `"${unavailable.label}" is not available.`, { pointer: '/cartToken', meta: { productId: unavailable.productId } });
    await this.assertInStock(priced.lines);
    const addresses = new Set((await this.host.customers.addresses(this.db, customer.id)).map((a) => a.id));
    for (const field of ['billingAddressId', 'shippingAddressId'] as const) {
      const addressId = body[field];
      if (addressId && !addresses.has(addressId)) throw Errors.badRequest('SUITE__UNKNOWN_ADDRESS', 'The address does not belong to your account.', { pointer: `/${field}` });
    }

    return inTransaction(this.db, async (trx) => {
      const settings = await loadSettings(trx, customer.id);
      const reasons: string[] = [];
      const reservations: Array<{ budgetId: string; amount: number; exceeds: boolean }> = [];
      if (ctx.actor.type === 'employee' && ctx.employee) {
        const [me] = await findEmployees(trx, customer.id, [ctx.employee.id]);
        if (me?.requiresApproval) reasons.push('role');
        const budgetIds = await applicableBudgetIds(trx, customer.id, ctx.employee.id);
        const evaluations = await evaluateBudgets(this.host, trx, { customerId: customer.id, budgetIds, lines: priced.lines, currencyIso: ctx.salesChannel.currencyIso, timeZone: ctx.salesChannel.timeZone });
        const refused = evaluations.find((e) => e.exceeds && !e.budget.allowApproval);
        if (refused) throw budgetExceededError(refused, ctx.salesChannel.currencyPrecision);
        if (evaluations.some((e) => e.exceeds)) reasons.push('budget');
        for (const e of evaluations) reservations.push({ budgetId: e.budget.id, amount: e.relevant, exceeds: e.exceeds });
      }
      if (reasons.length === 0) reasons.push('requested');

      const id = newId();
      const now = nowDb();
      const totals = totalsOf(priced.lines);
      try {
        await trx(APPROVALS).insert({
          id,
          approval_number: await this.host.nextNumber(trx, 'order-approval', 'OA'),
          customer_id: customer.id,
          sales_channel_id: ctx.salesChannel.id,
          requester_type: ctx.actor.type,
          requester_id: ctx.actor.id,
          requester_name: ctx.actor.name || customer.email,
          requester_email: ctx.actor.email,
          status: 'pending',
          decision_round: 1,
          mode: settings.mode,
          n_value: settings.nValue,
          approver_employee_ids: writeJson(settings.approverEmployeeIds),
          reasons: writeJson(reasons),
          cart_token: cart.token,
          open_cart_token: cart.token,
          customer_comment: body.customerComment ?? null,
          billing_address_id: body.billingAddressId ?? null,
          shipping_address_id: body.shippingAddressId ?? null,
          currency_iso: ctx.salesChannel.currencyIso,
          net_total: totals.netTotal,
          tax_total: totals.taxTotal,
          total: totals.total,
          is_blocked: false,
          block_reasons: writeJson([]),
          created_at: now,
        });
      } catch (error) {
        if (isDuplicateKeyError(error))
          throw Errors.badRequest('SUITE__ORDER_APPROVAL_EXISTS', 'An open order approval exists for this cart already.', { pointer: '/cartToken' });
        throw error;
      }
      for (const [position, line] of priced.lines.entries()) {
        await trx(LINE_ITEMS).insert({
          id: newId(),
          approval_id: id,
          type: line.type,
          product_id: line.productId,
          product_number: line.productNumber,
          label: line.label.slice(0, 255),
          quantity: line.quantity,
          unit_net: line.unitNet,
          total_net: line.totalNet,
          tax_rate_bp: line.taxRateBp,
          payload: writeJson(line.payload ?? {}),
          position,
        });
      }
      for (const r of reservations) await trx(APPROVAL_BUDGETS).insert({ approval_id: id, budget_id: r.budgetId, amount: r.amount, exceeds: r.exceeds });
      await addActivity(trx, id, ctx.actor, 'created', body.customerComment ?? null, { reasons, total: fromMinor(totals.total, ctx.salesChannel.currencyPrecision) });
      const approval = (await getApproval(trx, customer.id, id))!;
      await this.notifyApprovers(trx, approval, ctx.salesChannel, false);
      return id;
    });
  }

  private async assertInStock(lines: Array<{ productId: string | null; quantity: number; label: string }>): Promise<void> {
    const wanted = new Map<string, number>();
    for (const l of lines) if (l.productId) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
    const products = await this.host.catalog.products(this.db, [...wanted.keys()]);
    for (const p of products) {
      if ((wanted.get(p.id) ?? 0) > p.stock)
        throw Errors.badRequest('SUITE__PRODUCT_OUT_OF_STOCK', `Only ${p.stock} of "${p.name}" are in stock.`, { meta: { productId: p.id, stock: p.stock } });
    }
  }

  /** The "approval requested" mail to every approver who can decide it (and the approvers of budgets it exceeds). */
  private async notifyApprovers(trx: Trx, approval: ApprovalRow, salesChannel: SalesChannel, reapproval: boolean): Promise<void> {
    const entries = (await approverEntries(this.host, trx, approval)).filter((e) => e.eligible && e.key !== requesterKey(approval));
    const budgetApprovers = await trx(APPROVAL_BUDGETS)
      .join('suite_budgets as b', 'b.id', `${APPROVAL_BUDGETS}.budget_id`)
      .where(`${APPROVAL_BUDGETS}.approval_id`, approval.id)
      .where(`${APPROVAL_BUDGETS}.exceeds`, true)
      .whereNotNull('b.approver_employee_id')
      .pluck('b.approver_employee_id');
    const known = new Set(entries.map((e) => e.key));
    for (const e of await findEmployees(trx, approval.customerId, budgetApprovers as string[])) {
      if (e.active && !known.has(keyOf('employee', e.id)) && keyOf('employee', e.id) !== requesterKey(approval))
        entries.push({ key: keyOf('employee', e.id), type: 'employee', id: e.id, name: e.name, email: e.email, eligible: true });
    }
    const data = approvalMailData(this.host, salesChannel, approval, await approvalLines(trx, approval.id));
    for (const entry of entries) {
      await enqueueApprovalMail(this.host, trx, {
        template: MAIL.requested,
        to: entry.email,
        salesChannel,
        dedupeKey: `order-approval:${approval.id}:requested:${approval.round}:${entry.key}`,
        data: { ...data, recipientName: entry.name, reapproval },
      });
    }
  }

  // ---- approve / decline -------------------------------------------------------------------

  async decide(ctx: StoreContext, id: string, decision: 'approved' | 'declined', input: { comment?: string | null; ccEmployeeIds?: string[] }): Promise<void> {
    const customer = requireCustomer(ctx);
    await inTransaction(this.db, async (trx) => {
      const approval = await getApproval(trx, customer.id, id, true);
      if (!approval) throw Errors.notFound('Order approval', id);
      if (!isApprover(ctx, approval))
        throw notAllowed(isRequester(ctx, approval) ? 'A requester cannot decide their own order approval.' : 'You are not an approver of this order approval.');
      if (approval.status !== 'pending')
        throw Errors.badRequest(
          decision === 'approved' ? 'SUITE__ORDER_APPROVAL_NOT_APPROVABLE' : 'SUITE__ORDER_APPROVAL_NOT_DECLINABLE',
          `The order approval is ${approval.status}; only a pending one can be ${decision}.`,
        );
      if (decision === 'approved' && approval.isBlocked)
        throw Errors.badRequest('SUITE__ORDER_APPROVAL_BLOCKED', 'The order approval is blocked; refresh it once the products are available again.', { meta: { blockReasons: approval.blockReasons } });
      const ccIds = input.ccEmployeeIds ?? [];
      const cc = await findEmployees(trx, customer.id, ccIds);
      const unknownCc = ccIds.findIndex((ccId) => !cc.some((e) => e.id === ccId));
      if (unknownCc >= 0) throw Errors.badRequest('SUITE__UNKNOWN_EMPLOYEE', 'A copied employee does not belong to this customer.', { pointer: `/ccEmployeeIds/${unknownCc}` });
      const comment = input.comment?.trim() ? input.comment.trim() : null;
      try {
        await trx(DECISIONS).insert({
          id: newId(),
          approval_id: approval.id,
          round: approval.round,
          approver_key: keyOf(ctx.actor.type, ctx.actor.id),
          approver_type: ctx.actor.type,
          approver_id: ctx.actor.id,
          approver_name: ctx.actor.name || '',
          decision,
          comment,
          cc_employee_ids: writeJson(ccIds),
          created_at: nowDb(),
        });
      } catch (error) {
        if (isDuplicateKeyError(error)) throw Errors.badRequest('SUITE__ORDER_APPROVAL_ALREADY_DECIDED', 'You have decided this order approval already.');
        throw error;
      }
      await addActivity(trx, approval.id, ctx.actor, decision, comment, ccIds.length ? { ccEmployeeIds: ccIds } : {});
      if (decision === 'declined') {
        const now = nowDb();
        const updated = await trx(APPROVALS)
          .where({ id: approval.id, status: 'pending' })
          .update({ status: 'declined', open_cart_token: null, decided_at: now, updated_at: now });
        if (updated !== 1) throw Errors.conflict();
        const salesChannel = await this.salesChannelOf(trx, approval, ctx.salesChannel);
        await enqueueApprovalMail(this.host, trx, {
          template: MAIL.declined,
          to: approval.requesterEmail,
          cc: cc.filter((e) => e.active).map((e) => e.email),
          salesChannel,
          dedupeKey: `order-approval:${approval.id}:declined`,
          data: { ...approvalMailData(this.host, salesChannel, { ...approval, status: 'declined' }, await approvalLines(trx, approval.id)), declinedBy: ctx.actor.name, comment },
        });
        return;
      }
      await this.approveIfComplete(trx, approval, ctx.salesChannel);
    });
  }

  /** Turns a pending approval with enough approvals of its round into approved, and mails the requester once. */
  private async approveIfComplete(trx: Trx, approval: ApprovalRow, fallbackChannel?: SalesChannel): Promise<boolean> {
    const decisions = await decisionsOf(trx, approval.id, approval.round);
    if (approvalCount(approval, decisions) < requiredApprovals(approval)) return false;
    const now = nowDb();
    const updated = await trx(APPROVALS)
      .where({ id: approval.id, status: 'pending', decision_round: approval.round })
      .update({ status: 'approved', decided_at: now, updated_at: now });
    if (updated !== 1) return false;
    const ccIds = [...new Set(decisions.filter((d) => d.decision === 'approved').flatMap((d) => d.ccEmployeeIds))];
    const cc = (await findEmployees(trx, approval.customerId, ccIds)).filter((e) => e.active).map((e) => e.email);
    const salesChannel = await this.salesChannelOf(trx, approval, fallbackChannel);
    await enqueueApprovalMail(this.host, trx, {
      template: MAIL.approved,
      to: approval.requesterEmail,
      cc,
      salesChannel,
      dedupeKey: `order-approval:${approval.id}:approved:${approval.round}`,
      data: {
        ...approvalMailData(this.host, salesChannel, { ...approval, status: 'approved' }, await approvalLines(trx, approval.id)),
        approvals: decisions.filter((d) => d.decision === 'approved').map((d) => ({ name: d.approverName, comment: d.comment })),
      },
    });
    return true;
  }

  // ---- refresh -----------------------------------------------------------------------------

  /** Today's product, stock and price for every product line (read outside any transaction). */
  private async quote(ctx: StoreContext, lines: ApprovalLine[]): Promise<Map<string, LineQuote>> {
    const ids = [...new Set(lines.map((l) => l.productId).filter((id): id is string => !!id))];
    const products = new Map((await this.host.catalog.products(this.db, ids)).map((p) => [p.id, p]));
    const wanted = new Map<string, number>();
    for (const l of lines) if (l.productId) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
    const quotes = new Map<string, LineQuote>();
    for (const line of lines) {
      if (!line.productId) continue;
      const product = products.get(line.productId);
      if (!product || !product.active) {
        quotes.set(line.id, { product: null, unitNet: null, totalNet: null, taxRateBp: null, outOfStock: false });
        continue;
      }
      const price = await this.host.prices.calculate(ctx, product, line.quantity);
      quotes.set(line.id, { product, unitNet: price.unitNet, totalNet: price.totalNet, taxRateBp: price.taxRateBp, outOfStock: (wanted.get(product.id) ?? 0) > product.stock });
    }
    return quotes;
  }

  async refresh(ctx: StoreContext, id: string, input: { force?: boolean; sendEmailOnChanges?: boolean }): Promise<RefreshResult> {
    await ctx.ruleIds();
    const interval = Number(await this.host.config.get<number>('approvalRefreshMinIntervalSeconds'));
    for (let attempt = 0; attempt < 3; attempt++) {
      const approval = await this.visible(ctx, id);
      this.assertRefreshable(approval, input.force === true, interval);
      const lines = await approvalLines(this.db, id);
      const quotes = await this.quote(ctx, lines);
      const result = await inTransaction(this.db, async (trx) => {
        const locked = await this.visible(ctx, id, trx, true);
        this.assertRefreshable(locked, input.force === true, interval);
        const current = await approvalLines(trx, id);
        if (lineSignature(current) !== lineSignature(lines)) return RETRY;
        return this.applyRefresh(ctx, trx, locked, current, quotes, input.sendEmailOnChanges === true);
      });
      if (result !== RETRY) return result;
    }
    throw Errors.conflict('The order approval keeps changing; retry.');
  }

  private assertRefreshable(approval: ApprovalRow, force: boolean, intervalSeconds: number): void {
    if (approval.status !== 'pending' && approval.status !== 'approved')
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_NOT_REFRESHABLE', `The order approval is ${approval.status}; only pending and approved ones can be refreshed.`);
    if (force || !approval.lastRefreshedAt) return;
    const next = addSeconds(new Date(fromDbTime(approval.lastRefreshedAt)!), intervalSeconds);
    const wait = Math.ceil((next.getTime() - Date.now()) / 1000);
    if (wait > 0)
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_REFRESH_TOO_SOON', `The order approval was refreshed recently; retry in ${wait} seconds or send force.`, { pointer: '/force', meta: { retryAfter: wait } });
  }

  private async applyRefresh(ctx: StoreContext, trx: Trx, approval: ApprovalRow, lines: ApprovalLine[], quotes: Map<string, LineQuote>, sendEmailOnChanges: boolean): Promise<RefreshResult> {
    const precision = ctx.salesChannel.currencyPrecision;
    const money = (minor: number) => fromMinor(minor, precision);
    const changes: Array<Record<string, unknown>> = [];
    const blockReasons: string[] = [];
    const next: ApprovalLine[] = [];
    for (const line of lines) {
      const quote = quotes.get(line.id);
      const base = { lineItemId: line.id, productId: line.productId, productNumber: line.productNumber, label: line.label, quantity: line.quantity };
      if (!quote) {
        next.push(line);
        continue;
      }
      if (!quote.product) {
        changes.push({ ...base, type: 'product-unavailable' });
        blockReasons.push(`"${line.label}" (${line.productNumber ?? line.productId}) is no longer available.`);
        next.push(line);
        continue;
      }
      if (quote.outOfStock) {
        changes.push({ ...base, type: 'out-of-stock', availableStock: quote.product.stock });
        blockReasons.push(`"${line.label}" (${line.productNumber ?? line.productId}) is out of stock: ${quote.product.stock} available.`);
      }
      if (quote.unitNet !== line.unitNet || quote.taxRateBp !== line.taxRateBp) {
        changes.push({
          ...base,
          type: 'price',
          oldUnitPrice: money(line.unitNet),
          newUnitPrice: money(quote.unitNet!),
          oldTotalPrice: money(line.totalNet),
          newTotalPrice: money(quote.totalNet!),
          oldTaxRate: line.taxRateBp / 100,
          newTaxRate: quote.taxRateBp! / 100,
        });
        const updated = { ...line, unitNet: quote.unitNet!, totalNet: quote.totalNet!, taxRateBp: quote.taxRateBp! };
        await trx(LINE_ITEMS).where({ id: line.id, approval_id: approval.id }).update({ unit_net: updated.unitNet, total_net: updated.totalNet, tax_rate_bp: updated.taxRateBp });
        next.push(updated);
      } else next.push(line);
    }
    const budgetBlocks = await this.followReservations(ctx, trx, approval, next, false);
    blockReasons.push(...budgetBlocks);
    const totals = totalsOf(next);
    const requiresReapproval = totals.total > approval.total;
    const isBlocked = blockReasons.length > 0;
    const now = nowDb();
    const round = requiresReapproval ? approval.round + 1 : approval.round;
    await trx(APPROVALS)
      .where({ id: approval.id })
      .whereIn('status', ['pending', 'approved'])
      .update({
        net_total: totals.netTotal,
        tax_total: totals.taxTotal,
        total: totals.total,
        is_blocked: isBlocked,
        block_reasons: writeJson(blockReasons),
        last_refreshed_at: now,
        decision_round: round,
        ...(requiresReapproval ? { status: 'pending', decided_at: null } : {}),
        updated_at: now,
      });
    const hasChanges = changes.length > 0;
    await addActivity(trx, approval.id, ctx.actor, 'refreshed', null, {
      hasChanges,
      changes,
      requiresReapproval,
      isBlocked,
      oldTotal: money(approval.total),
      newTotal: money(totals.total),
    });
    const refreshed = { ...approval, ...totals, isBlocked, blockReasons, round, status: requiresReapproval ? ('pending' as const) : approval.status };
    const salesChannel = await this.salesChannelOf(trx, approval, ctx.salesChannel);
    if (requiresReapproval) await this.notifyApprovers(trx, refreshed, salesChannel, true);
    if (sendEmailOnChanges && hasChanges)
      await enqueueApprovalMail(this.host, trx, {
        template: MAIL.changes,
        to: approval.requesterEmail,
        salesChannel,
        data: { ...approvalMailData(this.host, salesChannel, refreshed, next), changes, requiresReapproval, isBlocked, blockReasons, oldTotal: `${money(approval.total).toFixed(precision)} ${approval.currencyIso}` },
      });
    return { isValid: !isBlocked, isBlocked, blockReasons, hasChanges, changes, requiresReapproval };
  }

  /**
   * Keeps the approval's budget reservations equal to its lines. With `strict`, a budget that refuses
   * orders beyond it refuses the change (400); otherwise that becomes a block reason.
   */
  private async followReservations(ctx: StoreContext, trx: Trx, approval: ApprovalRow, lines: ApprovalLine[], strict: boolean): Promise<string[]> {
    const budgetIds = (await trx(APPROVAL_BUDGETS).where({ approval_id: approval.id }).pluck('budget_id')) as string[];
    if (budgetIds.length === 0) return [];
    const salesChannel = await this.salesChannelOf(trx, approval, ctx.salesChannel);
    const evaluations = await evaluateBudgets(this.host, trx, {
      customerId: approval.customerId,
      budgetIds,
      lines,
      currencyIso: approval.currencyIso,
      timeZone: salesChannel.timeZone,
      excludeApprovalId: approval.id,
    });
    const reasons: string[] = [];
    const evaluated = new Set<string>();
    for (const e of evaluations) {
      evaluated.add(e.budget.id);
      if (e.exceeds && !e.budget.allowApproval) {
        if (strict) throw budgetExceededError(e, salesChannel.currencyPrecision);
        reasons.push(`The budget "${e.budget.name}" would be exceeded.`);
      }
      await trx(APPROVAL_BUDGETS).where({ approval_id: approval.id, budget_id: e.budget.id }).update({ amount: e.relevant, exceeds: e.exceeds });
    }
    // Budgets with no relevant line left (or gone inactive) hold nothing.
    const idle = budgetIds.filter((b) => !evaluated.has(b));
    if (idle.length) await trx(APPROVAL_BUDGETS).where({ approval_id: approval.id }).whereIn('budget_id', idle).update({ amount: 0, exceeds: false });
    return reasons;
  }

  // ---- execute -----------------------------------------------------------------------------

  async execute(ctx: StoreContext, id: string, input: { skipRefresh?: boolean }): Promise<ExecutionResult> {
    const customer = requireCustomer(ctx);
    let approval = await this.visible(ctx, id);
    if (!isRequester(ctx, approval) && !isCompanyAdmin(ctx)) throw notAllowed('Only the requester or a company admin may execute an order approval.');
    if (approval.status === 'ordered' && approval.executionResult) return approval.executionResult;
    this.assertExecutable(approval);
    if (!input.skipRefresh) {
      let refreshed: RefreshResult | null = null;
      try {
        refreshed = await this.refresh(ctx, id, { force: true });
      } catch (error) {
        const now = await getApproval(this.db, customer.id, id);
        if (now?.status === 'ordered' && now.executionResult) return now.executionResult;
        throw error;
      }
      if (refreshed.isBlocked)
        throw Errors.badRequest('SUITE__ORDER_APPROVAL_BLOCKED', `The order approval cannot be ordered: ${refreshed.blockReasons.join(' ')}`, { meta: { refreshResult: refreshed } });
      if (refreshed.requiresReapproval)
        throw Errors.badRequest('SUITE__ORDER_APPROVAL_REAPPROVAL_REQUIRED', 'Prices have risen since the approval; it needs to be approved again.', { meta: { refreshResult: refreshed } });
      approval = (await getApproval(this.db, customer.id, id))!;
      if (approval.status === 'ordered' && approval.executionResult) return approval.executionResult;
      this.assertExecutable(approval);
    }
    await ctx.ruleIds();
    try {
      return await inTransaction(this.db, async (trx) => {
        const now = nowDb();
        const claimed = await trx(APPROVALS).where({ id, customer_id: customer.id, status: 'approved', is_blocked: false }).update({ status: 'ordering', updated_at: now });
        if (claimed !== 1) {
          const current = (await getApproval(trx, customer.id, id))!;
          if (current.status === 'ordered' && current.executionResult) return current.executionResult;
          this.assertExecutable(current);
          throw Errors.conflict();
        }
        // Re-read after the claim: an update may have changed addresses or comment since the first read.
        const claimedRow = (await getApproval(trx, customer.id, id))!;
        const lines: PriceLine[] = (await approvalLines(trx, id)).map((l) => ({
          lineItemId: l.id,
          productId: l.productId,
          productNumber: l.productNumber,
          label: l.label,
          type: l.type,
          quantity: l.quantity,
          unitNet: l.unitNet,
          totalNet: l.totalNet,
          taxRateBp: l.taxRateBp,
          payload: l.payload,
        }));
        const placed = await this.host.checkout.placeOrder(
          ctx,
          {
            lines,
            billingAddressId: claimedRow.billingAddressId,
            shippingAddressId: claimedRow.shippingAddressId,
            customerComment: claimedRow.customerComment,
            origin: APPROVAL_INTERCEPTOR,
            skipInterceptors: [APPROVAL_INTERCEPTOR],
            customFields: { orderApprovalId: claimedRow.id, orderApprovalNumber: claimedRow.approvalNumber },
          },
          trx,
        );
        const order = (await this.host.orders.get(trx, placed.id)) as { transactions?: Array<{ paymentMethod?: { technicalName?: string } }> } | null;
        const paymentMethod = order?.transactions?.[0]?.paymentMethod?.technicalName ?? 'invoice';
        const requiresPaymentAction = !OFFLINE_PAYMENT_METHODS.has(paymentMethod);
        const salesChannel = await this.salesChannelOf(trx, claimedRow, ctx.salesChannel);
        const result: ExecutionResult = {
          success: true,
          orderId: placed.id,
          orderNumber: placed.orderNumber,
          ...(requiresPaymentAction ? { paymentUrl: this.host.storefront.url(salesChannel, `/account/order/${placed.id}/payment`) } : {}),
          requiresPaymentAction,
          errors: [],
          warnings: [],
        };
        const done = await trx(APPROVALS)
          .where({ id, status: 'ordering' })
          .update({ status: 'ordered', order_id: placed.id, order_number: placed.orderNumber, execution_result: writeJson(result), open_cart_token: null, updated_at: nowDb() });
        if (done !== 1) throw Errors.conflict();
        await addActivity(trx, id, ctx.actor, 'executed', null, { orderId: placed.id, orderNumber: placed.orderNumber });
        return result;
      });
    } catch (error) {
      // The host refused the order (stock, product or address gone): nothing was written, the approval stays approved.
      if (error instanceof AppError && error.status < 500 && error.status !== 409 && !error.code.startsWith('SUITE__ORDER_APPROVAL_')) {
        const result: ExecutionResult = { success: false, requiresPaymentAction: false, errorMessage: error.message, errors: [error.code], warnings: [] };
        throw Errors.badRequest('SUITE__ORDER_APPROVAL_EXECUTION_FAILED', `The order could not be placed: ${error.message}`, { meta: { executionResult: result } });
      }
      throw error;
    }
  }

  private assertExecutable(approval: ApprovalRow): void {
    if (approval.status !== 'approved')
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_NOT_EXECUTABLE', `The order approval is ${approval.status}; only an approved one can be ordered.`);
    if (approval.isBlocked)
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_BLOCKED', `The order approval cannot be ordered: ${approval.blockReasons.join(' ')}`, { meta: { blockReasons: approval.blockReasons } });
  }

  // ---- line items --------------------------------------------------------------------------

  private async editable(ctx: StoreContext, id: string, executor: Executor, lock: boolean): Promise<ApprovalRow> {
    const customer = requireCustomer(ctx);
    const approval = await getApproval(executor, customer.id, id, lock);
    if (!approval) throw Errors.notFound('Order approval', id);
    if (!isApprover(ctx, approval) && !(isCompanyAdmin(ctx) && !isRequester(ctx, approval)))
      throw notAllowed('Only an approver may change the line items of an order approval.');
    if (approval.status !== 'pending' && approval.status !== 'approved')
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_NOT_EDITABLE', `The order approval is ${approval.status}; its line items can no longer change.`);
    return approval;
  }

  async updateLineItem(ctx: StoreContext, id: string, lineItemId: string, quantity: number): Promise<void> {
    await ctx.ruleIds();
    await this.editable(ctx, id, this.db, false);
    const lines = await approvalLines(this.db, id);
    const line = lines.find((l) => l.id === lineItemId);
    if (!line) throw Errors.notFound('Line item', lineItemId);
    let unitNet = line.unitNet;
    let taxRateBp = line.taxRateBp;
    let totalNet = line.unitNet * quantity;
    if (line.productId) {
      const [product] = await this.host.catalog.products(this.db, [line.productId]);
      if (!product || !product.active) throw Errors.badRequest('SUITE__PRODUCT_NOT_AVAILABLE', `"${line.label}" is no longer available.`, { pointer: '/quantity' });
      const others = lines.filter((l) => l.id !== line.id && l.productId === line.productId).reduce((sum, l) => sum + l.quantity, 0);
      if (others + quantity > product.stock)
        throw Errors.badRequest('SUITE__PRODUCT_OUT_OF_STOCK', `Only ${product.stock} of "${product.name}" are in stock.`, { pointer: '/quantity', meta: { stock: product.stock } });
      const price = await this.host.prices.calculate(ctx, product, quantity);
      unitNet = price.unitNet;
      totalNet = price.totalNet;
      taxRateBp = price.taxRateBp;
    }
    await inTransaction(this.db, async (trx) => {
      const locked = await this.editable(ctx, id, trx, true);
      const current = await approvalLines(trx, id);
      const target = current.find((l) => l.id === lineItemId);
      if (!target) throw Errors.notFound('Line item', lineItemId);
      if (target.productId !== line.productId) throw Errors.conflict();
      await trx(LINE_ITEMS).where({ id: lineItemId, approval_id: id }).update({ quantity, unit_net: unitNet, total_net: totalNet, tax_rate_bp: taxRateBp });
      const next = current.map((l) => (l.id === lineItemId ? { ...l, quantity, unitNet, totalNet, taxRateBp } : l));
      await this.afterLineChange(ctx, trx, locked, next, 'line-item-updated', null, {
        lineItemId,
        label: target.label,
        oldQuantity: target.quantity,
        newQuantity: quantity,
      });
    });
  }

  async deleteLineItem(ctx: StoreContext, id: string, lineItemId: string, reason: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const approval = await this.editable(ctx, id, trx, true);
      const current = await approvalLines(trx, id);
      const target = current.find((l) => l.id === lineItemId);
      if (!target) throw Errors.notFound('Line item', lineItemId);
      if (current.length === 1)
        throw Errors.badRequest('SUITE__ORDER_APPROVAL_LAST_LINE_ITEM', 'The last line item cannot be deleted; decline the order approval instead.');
      await trx(LINE_ITEMS).where({ id: lineItemId, approval_id: id }).delete();
      const next = current.filter((l) => l.id !== lineItemId);
      await this.afterLineChange(ctx, trx, approval, next, 'line-item-deleted', reason.trim(), {
        lineItemId,
        label: target.label,
        productId: target.productId,
        quantity: target.quantity,
      });
    });
  }

  /** Totals, reservations and the activity log follow a line edit; a higher total needs new decisions. */
  private async afterLineChange(ctx: StoreContext, trx: Trx, approval: ApprovalRow, lines: ApprovalLine[], action: string, comment: string | null, metadata: Record<string, unknown>): Promise<void> {
    await this.followReservations(ctx, trx, approval, lines, true);
    const totals = totalsOf(lines);
    const rises = totals.total > approval.total;
    const round = rises ? approval.round + 1 : approval.round;
    const now = nowDb();
    await trx(APPROVALS)
      .where({ id: approval.id })
      .whereIn('status', ['pending', 'approved'])
      .update({ net_total: totals.netTotal, tax_total: totals.taxTotal, total: totals.total, decision_round: round, ...(rises ? { status: 'pending', decided_at: null } : {}), updated_at: now });
    const precision = ctx.salesChannel.currencyPrecision;
    await addActivity(trx, approval.id, ctx.actor, action, comment, {
      ...metadata,
      oldTotal: fromMinor(approval.total, precision),
      newTotal: fromMinor(totals.total, precision),
      requiresReapproval: rises,
    });
    const updated = { ...approval, ...totals, round, status: rises ? ('pending' as const) : approval.status };
    if (rises) await this.notifyApprovers(trx, updated, await this.salesChannelOf(trx, approval, ctx.salesChannel), true);
    else if (updated.status === 'pending') await this.approveIfComplete(trx, updated, ctx.salesChannel);
  }

  // ---- update ------------------------------------------------------------------------------

  async update(ctx: StoreContext, id: string, body: { customerComment?: string | null; billingAddressId?: string | null; shippingAddressId?: string | null }): Promise<void> {
    const customer = requireCustomer(ctx);
    const addresses = new Set((await this.host.customers.addresses(this.db, customer.id)).map((a) => a.id));
    for (const field of ['billingAddressId', 'shippingAddressId'] as const) {
      const addressId = body[field];
      if (addressId && !addresses.has(addressId)) throw Errors.badRequest('SUITE__UNKNOWN_ADDRESS', 'The address does not belong to your account.', { pointer: `/${field}` });
    }
    await inTransaction(this.db, async (trx) => {
      const approval = await this.visible(ctx, id, trx, true);
      if (!isRequester(ctx, approval) && !isCompanyAdmin(ctx)) throw notAllowed('Only the requester or a company admin may change an order approval.');
      if (approval.status !== 'pending' && approval.status !== 'approved')
        throw Errors.badRequest('SUITE__ORDER_APPROVAL_NOT_UPDATABLE', `The order approval is ${approval.status}; it can no longer change.`);
      const columns: Record<string, unknown> = {};
      if (body.customerComment !== undefined) columns.customer_comment = body.customerComment;
      if (body.billingAddressId !== undefined) columns.billing_address_id = body.billingAddressId;
      if (body.shippingAddressId !== undefined) columns.shipping_address_id = body.shippingAddressId;
      await trx(APPROVALS).where({ id }).whereIn('status', ['pending', 'approved']).update({ ...columns, updated_at: nowDb() });
      await addActivity(trx, id, ctx.actor, 'updated', null, { fields: Object.keys(body) });
    });
  }

  // ---- reminders ---------------------------------------------------------------------------

  async remind(ctx: StoreContext, id: string, approverId: string | null): Promise<number> {
    const approval = await this.visible(ctx, id);
    if (!isRequester(ctx, approval) && !isCompanyAdmin(ctx)) throw notAllowed('Only the requester or a company admin may send reminders.');
    const entries = await approverEntries(this.host, this.db, approval);
    let targets = entries;
    if (approverId !== null) {
      targets = entries.filter((e) => e.id === approverId);
      if (targets.length === 0) throw Errors.notFound('Approver', approverId);
    }
    if (approval.status !== 'pending')
      throw Errors.badRequest('SUITE__ORDER_APPROVAL_NOT_REMINDABLE', `The order approval is ${approval.status}; reminders are for pending ones.`);
    const interval = await this.reminderInterval();
    return inTransaction(this.db, async (trx) => {
      const sent = await this.sendReminders(trx, approval, targets, interval, ctx.salesChannel);
      if (sent.length) await addActivity(trx, id, ctx.actor, 'reminded', null, { approverIds: sent.map((e) => e.id) });
      return sent.length;
    });
  }

  /** Mails the still-pending approvers among `targets`, at most once per approver per interval. */
  private async reminderInterval(): Promise<number> {
    return Number(await this.host.config.get<number>('approvalReminderIntervalSeconds'));
  }

  /** Read outside transactions: settings come from the root connection (SQLite has only one). */
  async sendReminders(trx: Trx, approval: ApprovalRow, targets: ApproverEntry[], interval: number, fallbackChannel?: SalesChannel): Promise<ApproverEntry[]> {
    const decided = new Set((await decisionsOf(trx, approval.id, approval.round)).map((d) => d.approverKey));
    const due = targets.filter((e) => e.eligible && e.email && !decided.has(e.key) && e.key !== requesterKey(approval));
    if (due.length === 0) return [];
    const salesChannel = await this.salesChannelOf(trx, approval, fallbackChannel);
    const data = approvalMailData(this.host, salesChannel, approval, await approvalLines(trx, approval.id));
    const sent: ApproverEntry[] = [];
    for (const entry of due) {
      if (!(await this.claimReminder(trx, approval.id, entry.key, interval))) continue;
      await enqueueApprovalMail(this.host, trx, { template: MAIL.reminder, to: entry.email, salesChannel, data: { ...data, recipientName: entry.name } });
      sent.push(entry);
    }
    return sent;
  }

  private async claimReminder(trx: Trx, approvalId: string, approverKey: string, intervalSeconds: number): Promise<boolean> {
    const now = new Date();
    const updated = await trx(REMINDERS)
      .where({ approval_id: approvalId, approver_key: approverKey })
      .where('last_sent_at', '<=', toDbTime(addSeconds(now, -intervalSeconds)))
      .update({ last_sent_at: toDbTime(now) });
    if (updated === 1) return true;
    const exists = await trx(REMINDERS).where({ approval_id: approvalId, approver_key: approverKey }).first('approval_id');
    if (exists) return false;
    try {
      await trx(REMINDERS).insert({ approval_id: approvalId, approver_key: approverKey, last_sent_at: toDbTime(now) });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** The scheduled job: reminds approvers of approvals pending for longer than the interval. */
  async remindOverdue(limit = 200): Promise<number> {
    const interval = await this.reminderInterval();
    const cutoff = toDbTime(addSeconds(new Date(), -interval));
    const rows = await this.db(APPROVALS).where({ status: 'pending', is_blocked: false }).where('created_at', '<=', cutoff).orderBy('created_at').limit(limit).select('id', 'customer_id');
    let total = 0;
    for (const row of rows) {
      total += await inTransaction(this.db, async (trx) => {
        const approval = await getApproval(trx, row.customer_id, row.id);
        if (!approval || approval.status !== 'pending') return 0;
        const sent = await this.sendReminders(trx, approval, await approverEntries(this.host, trx, approval), interval);
        if (sent.length) await addActivity(trx, approval.id, { type: 'system', id: null, name: 'System' }, 'reminded', null, { approverIds: sent.map((e) => e.id), automatic: true });
        return sent.length;
      });
    }
    return total;
  }

  // ---- settings ----------------------------------------------------------------------------

  /** Re-applies the customer's current settings to its pending approvals; approves those that now have enough approvals. */
  async updatePending(ctx: StoreContext): Promise<number> {
    const customer = requireCustomer(ctx);
    return inTransaction(this.db, async (trx) => {
      const settings = await loadSettings(trx, customer.id);
      const ids = (await trx(APPROVALS).where({ customer_id: customer.id, status: 'pending' }).orderBy('id').pluck('id')) as string[];
      let updatedCount = 0;
      for (const id of ids) {
        const approval = await getApproval(trx, customer.id, id, true);
        if (!approval || approval.status !== 'pending') continue;
        const updated = await trx(APPROVALS)
          .where({ id, status: 'pending' })
          .update({ mode: settings.mode, n_value: settings.nValue, approver_employee_ids: writeJson(settings.approverEmployeeIds), updated_at: nowDb() });
        if (updated !== 1) continue;
        updatedCount++;
        const next = { ...approval, mode: settings.mode, nValue: settings.nValue, approverEmployeeIds: settings.approverEmployeeIds };
        await addActivity(trx, id, ctx.actor, 'settings-applied', null, { mode: settings.mode, nValue: settings.nValue, approverEmployeeIds: settings.approverEmployeeIds });
        if (!(await this.approveIfComplete(trx, next, ctx.salesChannel))) await this.notifyApprovers(trx, next, ctx.salesChannel, false);
      }
      return updatedCount;
    });
  }

  async activities(ctx: StoreContext, id: string): Promise<Array<Record<string, unknown>>> {
    const approval = await this.visible(ctx, id);
    const rows = await this.db(ACTIVITIES).where({ approval_id: approval.id }).orderBy('created_at').orderBy('id');
    return rows.map((r) => ({
      id: r.id,
      action: r.action,
      employeeName: r.actor_name ?? '',
      actorType: r.actor_type,
      actorId: r.actor_id ?? null,
      comment: r.comment ?? '',
      metadata: typeof r.metadata === 'string' ? JSON.parse(r.metadata) : (r.metadata ?? {}),
      createdAt: fromDbTime(r.created_at),
    }));
  }
}
