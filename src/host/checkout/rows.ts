/**
 * Rows of the checkout tables (migrations/host/003, 006) as the drivers return them: money columns
 * and counters may come back as strings or bigints, times as strings or Dates, JSON as text.
 */
export type DbTime = string | Date;
export type DbNumber = number | string;

export interface OrderRow {
  id: string;
  order_number: string;
  sales_channel_id: string;
  customer_id: string;
  placed_by_type: string;
  placed_by_id: string | null;
  state: string;
  currency_iso: string;
  net_total: DbNumber;
  tax_total: DbNumber;
  total: DbNumber;
  billing_address: string | null;
  shipping_address: string | null;
  customer_comment: string | null;
  source_cart_token: string | null;
  custom_fields: string | null;
  order_customer: string | null;
  order_date: DbTime;
  /** Moved by triggers on every write to the order and its parts (migrations/host/013). */
  version: DbNumber;
  created_at: DbTime;
  updated_at: DbTime | null;
}

export interface OrderLineRow {
  id: string;
  order_id: string;
  type: string;
  product_id: string | null;
  product_number: string | null;
  label: string;
  quantity: DbNumber;
  unit_net: DbNumber;
  total_net: DbNumber;
  tax_rate_bp: DbNumber;
  payload: string | null;
  position: DbNumber;
}

export interface OrderDeliveryRow {
  id: string;
  order_id: string;
  state: string;
  shipping_method: string;
  shipping_address: string | null;
  created_at: DbTime;
}

export interface OrderTransactionRow {
  id: string;
  order_id: string;
  state: string;
  payment_method: string;
  amount: DbNumber;
  created_at: DbTime;
}

export interface CartRow {
  token: string;
  sales_channel_id: string;
  customer_id: string | null;
  order_id: string | null;
  actor_type: string | null;
  actor_id: string | null;
  created_at: DbTime;
  updated_at: DbTime | null;
}

export interface CartLineRow {
  id: string;
  cart_token: string;
  type: string;
  product_id: string | null;
  label: string;
  quantity: DbNumber;
  payload: string | null;
  position: DbNumber;
  created_at: DbTime;
  updated_at: DbTime | null;
}
