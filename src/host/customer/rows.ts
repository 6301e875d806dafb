/** Rows of the customer tables (migrations/host/001, 009) as the drivers return them. */
type DbTime = string | Date;

export interface SalesChannelRow {
  id: string;
  name: string;
  access_key: string;
  currency_iso: string;
  currency_precision: number | string;
  language_code: string;
  time_zone: string;
  domains: string;
  active: boolean | number;
  seller_address: string | null;
  vat_id: string | null;
  created_at: DbTime;
  updated_at: DbTime | null;
}

export interface CustomerGroupRow {
  id: string;
  name: string;
}

export interface CustomerRow {
  id: string;
  sales_channel_id: string;
  group_id: string | null;
  customer_number: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  company: string | null;
  tags: string | null;
  active: boolean | number;
  default_billing_address_id: string | null;
  default_shipping_address_id: string | null;
  created_at: DbTime;
  updated_at: DbTime | null;
}

export interface AddressRow {
  id: string;
  customer_id: string;
  company: string | null;
  first_name: string;
  last_name: string;
  street: string;
  zipcode: string;
  city: string;
  country_code: string;
  created_at: DbTime;
  updated_at: DbTime | null;
}
