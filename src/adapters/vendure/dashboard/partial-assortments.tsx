/**
 * Partial assortments in the Dashboard: the rules assigned to products (on Vendure: product variants)
 * and to categories, paged, with the variants' and customer groups' names from Vendure's Admin API
 * (on Vendure a rule is a customer group), and removal. The Admin API's
 * listSuitePartialAssortment{Product,Category}Rules and deleteSuitePartialAssortment…Rule; limiting
 * an item to a customer or group is the console's form.
 */
import {
  api,
  Button,
  Page,
  PageBlock,
  PageLayout,
  PageTitle,
  useMutation,
  useQuery,
  useQueryClient,
  type ColumnDef,
} from '@vendure/dashboard';
import { useState } from 'react';
import { b2bApi, query, toVendureId, type Resource, type ResourceList } from './api.js';
import { ConsoleLink, ErrorNotice, PagedTable, FilterButtons } from './shared.js';

type Kind = 'product' | 'category';
type Assignment = Resource<Record<string, string>>;

const KINDS: Array<{ value: Kind; label: string }> = [
  { value: 'product', label: 'Products' },
  { value: 'category', label: 'Categories' },
];

async function namesOf(kind: Kind, rows: Assignment[]) {
  const groupIds = [...new Set(rows.map((r) => toVendureId(r.attributes.ruleId)))];
  const variantIds = kind === 'product' ? [...new Set(rows.map((r) => toVendureId(r.attributes.productId)))] : [];
  const answer = (await api.query(
    `query SuiteB2BAssortmentNames($g: [String!], $v: [String!]) {
      customerGroups(options: { filter: { id: { in: $g } }, take: 100 }) { items { id name } }
      productVariants(options: { filter: { id: { in: $v } }, take: 100 }) { items { id name sku } }
    }`,
    { g: groupIds, v: variantIds },
  )) as {
    customerGroups: { items: Array<{ id: string; name: string }> };
    productVariants: { items: Array<{ id: string; name: string; sku: string }> };
  };
  return {
    groups: Object.fromEntries(answer.customerGroups.items.map((g) => [String(g.id), g.name])),
    variants: Object.fromEntries(answer.productVariants.items.map((v) => [String(v.id), `${v.name} (${v.sku})`])),
  };
}

export function PartialAssortmentsPage() {
  const [kind, setKind] = useState<Kind>('product');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(25);
  const client = useQueryClient();
  const idField = kind === 'product' ? 'productId' : 'categoryId';
  const list = useQuery({
    queryKey: ['suite-b2b', 'partial-assortments', kind, page, perPage],
    queryFn: async () => {
      const answer = await b2bApi<ResourceList<Record<string, string>>>(
        'GET',
        `/suite-partial-assortment-${kind}-rule${query({ page, limit: perPage })}`,
      );
      const names = answer.data.length ? await namesOf(kind, answer.data) : { groups: {}, variants: {} };
      return { ...answer, names };
    },
  });
  const remove = useMutation({
    mutationFn: (row: Assignment) =>
      b2bApi<void>(
        'DELETE',
        `/suite-partial-assortment-${kind}-rule/${row.attributes[idField]}/${row.attributes.ruleId}`,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['suite-b2b', 'partial-assortments'] }),
  });
  const names = list.data?.names;
  const columns: Array<ColumnDef<Assignment>> = [
    {
      id: 'item',
      header: kind === 'product' ? 'Product variant' : 'Category',
      cell: ({ row }) => {
        const id = toVendureId(row.original.attributes[idField]);
        return (kind === 'product' && names?.variants[id]) || `#${id}`;
      },
    },
    {
      id: 'rule',
      header: 'Rule (customer group)',
      cell: ({ row }) => {
        const id = toVendureId(row.original.attributes.ruleId);
        return names?.groups[id] ?? `#${id}`;
      },
    },
    {
      id: 'remove',
      header: '',
      cell: ({ row }) => (
        <Button
          type="button"
          size="sm"
          variant="destructive"
          disabled={remove.isPending}
          onClick={() => remove.mutate(row.original)}
        >
          Remove
        </Button>
      ),
    },
  ];
  return (
    <Page pageId="suite-b2b-partial-assortments">
      <PageTitle>Partial assortments</PageTitle>
      <PageLayout>
        <PageBlock column="main" blockId="suite-b2b-partial-assortment-list">
          <p className="text-sm text-muted-foreground mb-3">
            An item with rules is shown only to the customers its rules (customer groups) let through.
          </p>
          <FilterButtons
            options={KINDS}
            value={kind}
            onChange={(value) => {
              setKind(value);
              setPage(1);
            }}
          />
          <ErrorNotice error={list.error ?? remove.error} />
          <PagedTable columns={columns} list={list} paging={{ page, perPage, setPage, setPerPage }} />
          {list.data && list.data.meta.total === 0 ? (
            <p className="text-muted-foreground text-sm mt-2">
              No rules assigned to {kind === 'product' ? 'products' : 'categories'}: every customer sees them all.
            </p>
          ) : null}
          <p className="text-sm mt-3">
            Limit an item to a customer or group:{' '}
            <ConsoleLink path="/partial-assortments">the console's partial assortments</ConsoleLink>
          </p>
        </PageBlock>
      </PageLayout>
    </Page>
  );
}
