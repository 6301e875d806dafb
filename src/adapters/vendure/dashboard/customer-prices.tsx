/**
 * Customer prices in the Dashboard: the list searched by customer and product (Vendure ids, paged),
 * names and SKUs read from Vendure's own Admin API, and one form that sets a price (customer or
 * group, product variant, from-quantity, net price, strike-through price, validity, currency) or
 * changes a listed one; delete. The Admin API's listSuiteCustomerPrices, upsertSuiteCustomerPrice,
 * deleteSuiteCustomerPrice. Import and export stay in the console.
 */
import {
  api,
  Button,
  Input,
  Label,
  Page,
  PageBlock,
  PageLayout,
  PageTitle,
  useMutation,
  useQuery,
  useQueryClient,
  type ColumnDef,
} from '@vendure/dashboard';
import { useState, type FormEvent } from 'react';
import {
  ApiError,
  b2bApi,
  formatDate,
  formatPrice,
  query,
  toPluginId,
  toVendureId,
  type Resource,
  type ResourceList,
} from './api.js';
import { ConsoleLink, ErrorNotice, PagedTable } from './shared.js';

interface CustomerPrice {
  customerId: string | null;
  customerGroupId: string | null;
  productId: string;
  minQuantity: number;
  price: number;
  listPrice: number | null;
  validFrom: string | null;
  validUntil: string | null;
  currency: string | null;
}
type Row = Resource<CustomerPrice>;

interface Names {
  customers: Record<string, { name: string; email: string }>;
  variants: Record<string, string>;
}

/** Names for the ids of a page of prices, from Vendure's Admin API (the Dashboard's own client). */
async function namesOf(rows: Row[]): Promise<Names> {
  const customerIds = [...new Set(rows.map((r) => toVendureId(r.attributes.customerId)).filter(Boolean))];
  const variantIds = [...new Set(rows.map((r) => toVendureId(r.attributes.productId)))];
  const answer = (await api.query(
    `query SuiteB2BPriceNames($c: [String!], $v: [String!]) {
      customers(options: { filter: { id: { in: $c } }, take: 100 }) { items { id firstName lastName emailAddress } }
      productVariants(options: { filter: { id: { in: $v } }, take: 100 }) { items { id name sku } }
    }`,
    { c: customerIds, v: variantIds },
  )) as {
    customers: { items: Array<{ id: string; firstName: string; lastName: string; emailAddress: string }> };
    productVariants: { items: Array<{ id: string; name: string; sku: string }> };
  };
  return {
    customers: Object.fromEntries(
      answer.customers.items.map((c) => [
        String(c.id),
        { name: `${c.firstName} ${c.lastName}`, email: c.emailAddress },
      ]),
    ),
    variants: Object.fromEntries(answer.productVariants.items.map((v) => [String(v.id), `${v.name} (${v.sku})`])),
  };
}

interface Search {
  customer: string;
  product: string;
}

export function CustomerPricesPage() {
  const [typed, setTyped] = useState<Search>({ customer: '', product: '' });
  const [search, setSearch] = useState<Search>({ customer: '', product: '' });
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(25);
  const [editing, setEditing] = useState<Row | null>(null);
  const list = useQuery({
    queryKey: ['suite-b2b', 'customer-prices', search, page, perPage],
    queryFn: async () => {
      const answer = await b2bApi<ResourceList<CustomerPrice>>(
        'GET',
        `/suite-customer-price${query({
          customerId: search.customer ? toPluginId(search.customer) : undefined,
          productId: search.product ? toPluginId(search.product) : undefined,
          page,
          limit: perPage,
        })}`,
      );
      const names: Names = answer.data.length ? await namesOf(answer.data) : { customers: {}, variants: {} };
      return { ...answer, names };
    },
  });
  const names = list.data?.names;
  const columns: Array<ColumnDef<Row>> = [
    {
      id: 'for',
      header: 'Customer or group',
      cell: ({ row }) => {
        const a = row.original.attributes;
        if (a.customerGroupId) return `Group #${toVendureId(a.customerGroupId)}`;
        const id = toVendureId(a.customerId);
        const customer = names?.customers[id];
        return customer ? (
          <>
            {customer.name}
            <br />
            <span className="text-muted-foreground">{customer.email}</span>
          </>
        ) : (
          `Customer #${id}`
        );
      },
    },
    {
      id: 'product',
      header: 'Product variant',
      cell: ({ row }) => {
        const id = toVendureId(row.original.attributes.productId);
        return names?.variants[id] ?? `#${id}`;
      },
    },
    { id: 'minQuantity', header: 'From qty', cell: ({ row }) => row.original.attributes.minQuantity },
    {
      id: 'price',
      header: 'Net price',
      cell: ({ row }) => formatPrice(row.original.attributes.price, row.original.attributes.currency),
    },
    {
      id: 'validity',
      header: 'Valid',
      cell: ({ row }) => {
        const a = row.original.attributes;
        if (!a.validFrom && !a.validUntil) return 'always';
        return `${a.validFrom ? `from ${formatDate(a.validFrom)}` : ''} ${a.validUntil ? `until ${formatDate(a.validUntil)}` : ''}`.trim();
      },
    },
    {
      id: 'edit',
      header: '',
      cell: ({ row }) => (
        <Button type="button" size="sm" variant="outline" onClick={() => setEditing(row.original)}>
          Change
        </Button>
      ),
    },
  ];
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch({ customer: typed.customer.trim(), product: typed.product.trim() });
    setPage(1);
  };
  return (
    <Page pageId="suite-b2b-customer-prices">
      <PageTitle>Customer prices</PageTitle>
      <PageLayout>
        <PageBlock column="main" blockId="suite-b2b-customer-price-list">
          <form className="flex flex-wrap items-end gap-3 mb-3" onSubmit={submitSearch} role="search">
            <div>
              <Label htmlFor="suite-b2b-search-customer">Customer id</Label>
              <Input
                id="suite-b2b-search-customer"
                value={typed.customer}
                onChange={(event) => setTyped({ ...typed, customer: event.target.value })}
              />
            </div>
            <div>
              <Label htmlFor="suite-b2b-search-product">Product variant id</Label>
              <Input
                id="suite-b2b-search-product"
                value={typed.product}
                onChange={(event) => setTyped({ ...typed, product: event.target.value })}
              />
            </div>
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
          <ErrorNotice error={list.error} />
          <PagedTable columns={columns} list={list} paging={{ page, perPage, setPage, setPerPage }} />
          {list.data && list.data.meta.total === 0 ? (
            <p className="text-muted-foreground text-sm mt-2">
              No customer prices{search.customer || search.product ? ' match the search' : ''}. Set one with the form,
              or import a CSV file in the console.
            </p>
          ) : null}
          <p className="text-sm mt-3">
            More in the console: <ConsoleLink path="/customer-prices/import">import a CSV file</ConsoleLink> ·{' '}
            <ConsoleLink path="/customer-prices/export">export as CSV</ConsoleLink>
          </p>
        </PageBlock>
        <PageBlock
          column="side"
          blockId="suite-b2b-customer-price-form"
          title={editing ? 'Change the price' : 'Set a price'}
        >
          <PriceForm key={editing?.id ?? 'new'} row={editing} onDone={() => setEditing(null)} />
        </PageBlock>
      </PageLayout>
    </Page>
  );
}

interface FormValues {
  customerId: string;
  customerGroupId: string;
  productId: string;
  minQuantity: string;
  price: string;
  listPrice: string;
  validFrom: string;
  validUntil: string;
  currency: string;
}

/** A stored instant as a `datetime-local` value in UTC (the console's convention), and back. */
const toLocalInput = (value: string | null) => (value ? value.slice(0, 16) : '');
const fromLocalInput = (value: string) => (value ? `${value}:00Z` : null);

function initialValues(row: Row | null): FormValues {
  const a = row?.attributes;
  return {
    customerId: toVendureId(a?.customerId),
    customerGroupId: toVendureId(a?.customerGroupId),
    productId: a ? toVendureId(a.productId) : '',
    minQuantity: String(a?.minQuantity ?? 1),
    price: a ? String(a.price) : '',
    listPrice: a?.listPrice == null ? '' : String(a.listPrice),
    validFrom: toLocalInput(a?.validFrom ?? null),
    validUntil: toLocalInput(a?.validUntil ?? null),
    currency: a?.currency ?? '',
  };
}

function PriceForm({ row, onDone }: { row: Row | null; onDone: () => void }) {
  const client = useQueryClient();
  const [values, setValues] = useState<FormValues>(() => initialValues(row));
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      b2bApi<{ data: Row }>('POST', '/suite-customer-price', {
        ...(values.customerId.trim() ? { customerId: toPluginId(values.customerId) } : {}),
        ...(values.customerGroupId.trim() ? { customerGroupId: toPluginId(values.customerGroupId) } : {}),
        productId: toPluginId(values.productId),
        minQuantity: Number(values.minQuantity || 1),
        price: values.price.trim() === '' ? undefined : Number(values.price.replace(',', '.')),
        listPrice: values.listPrice.trim() === '' ? null : Number(values.listPrice.replace(',', '.')),
        validFrom: fromLocalInput(values.validFrom),
        validUntil: fromLocalInput(values.validUntil),
        currency: values.currency.trim() ? values.currency.trim().toUpperCase() : null,
      }),
    onSuccess: async () => {
      setSaved('The price is saved.');
      await client.invalidateQueries({ queryKey: ['suite-b2b', 'customer-prices'] });
    },
  });
  const remove = useMutation({
    mutationFn: () => b2bApi<void>('DELETE', `/suite-customer-price/${row!.id}`),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['suite-b2b', 'customer-prices'] });
      onDone();
    },
  });
  const error = save.error instanceof ApiError ? save.error : null;
  const fieldError = (name: keyof FormValues) => error?.field(name);
  const field = (name: keyof FormValues, label: string, type = 'text', hint?: string) => (
    <div key={name}>
      <Label htmlFor={`suite-b2b-price-${name}`}>{label}</Label>
      <Input
        id={`suite-b2b-price-${name}`}
        name={name}
        type={type}
        value={values[name]}
        aria-invalid={fieldError(name) ? true : undefined}
        aria-describedby={fieldError(name) ? `suite-b2b-price-${name}-error` : undefined}
        onChange={(event) => {
          setSaved(null);
          setValues({ ...values, [name]: event.target.value });
        }}
      />
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      {fieldError(name) ? (
        <p id={`suite-b2b-price-${name}-error`} className="text-destructive text-sm break-words">
          {fieldError(name)}
        </p>
      ) : null}
    </div>
  );
  const pointed = new Set([
    '/customerId',
    '/customerGroupId',
    '/productId',
    '/minQuantity',
    '/price',
    '/listPrice',
    '/validFrom',
    '/validUntil',
    '/currency',
  ]);
  const unplaced = error ? error.errors.filter((e) => !pointed.has(e.source?.pointer ?? '')) : [];
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      {field('customerId', 'Customer id', 'text', 'Or a customer group id below.')}
      {field('customerGroupId', 'Customer group id')}
      {field('productId', 'Product variant id')}
      {field('minQuantity', 'From quantity', 'number')}
      {field('price', 'Net price', 'text')}
      {field('listPrice', 'Strike-through price', 'text')}
      {field('validFrom', 'Valid from (UTC)', 'datetime-local')}
      {field('validUntil', 'Valid until (UTC)', 'datetime-local')}
      {field('currency', 'Currency', 'text', "ISO code, e.g. EUR; empty: the channel's currency.")}
      {unplaced.length ? <ErrorNotice error={new ApiError(error!.status, unplaced)} /> : null}
      {save.error && !error ? <ErrorNotice error={save.error} /> : null}
      {saved ? (
        <p role="status" className="text-sm">
          {saved}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          Save price
        </Button>
        {row ? (
          <>
            <Button type="button" variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Delete
            </Button>
            <Button type="button" variant="ghost" onClick={onDone}>
              New price
            </Button>
          </>
        ) : null}
      </div>
      <ErrorNotice error={remove.error} />
    </form>
  );
}
