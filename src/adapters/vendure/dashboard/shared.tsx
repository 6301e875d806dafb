/** Bits the B2B Dashboard pages share: the console link, an error notice, the status filter buttons. */
import { Button, DataTable, type ColumnDef } from '@vendure/dashboard';
import type { ReactNode } from 'react';
import { ApiError, CONSOLE } from './api.js';

/** A link to a page of the B2B console (/b2b-admin): what the Dashboard pages do not offer. */
export function ConsoleLink({ path, children }: { path: string; children: ReactNode }) {
  return (
    <a className="text-primary underline-offset-4 hover:underline" href={`${CONSOLE}${path}`}>
      {children}
    </a>
  );
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const text =
    error instanceof ApiError && error.status === 403
      ? `${error.message} (the Vendure permission SuiteB2BAdmin is needed)`
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <p role="alert" className="text-destructive text-sm my-2">
      {text}
    </p>
  );
}

export function FilterButtons<T extends string>({
  options,
  value,
  onChange,
}: {
  options: Array<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className="flex gap-2 mb-3" role="group">
      {options.map((option) => (
        <Button
          key={option.value}
          type="button"
          size="sm"
          variant={option.value === value ? 'default' : 'outline'}
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}

/** The page and page size of a list, as the DataTable changes them. */
export interface Paging {
  page: number;
  perPage: number;
  setPage(page: number): void;
  setPerPage(perPage: number): void;
}

/** A list of the plugin's Admin API (JSON:API `data` and `meta.total`) in the Dashboard's paged DataTable. */
export function PagedTable<Row>({
  columns,
  list,
  paging,
}: {
  columns: Array<ColumnDef<Row>>;
  list: { data?: { data: Row[]; meta: { total: number } }; isLoading: boolean; refetch(): unknown };
  paging: Paging;
}) {
  return (
    <DataTable
      columns={columns}
      data={list.data?.data ?? []}
      totalItems={list.data?.meta.total ?? 0}
      isLoading={list.isLoading}
      page={paging.page}
      itemsPerPage={paging.perPage}
      disableViewOptions
      onPageChange={(_table, nextPage, nextPerPage) => {
        paging.setPage(nextPage);
        paging.setPerPage(nextPerPage);
      }}
      onRefresh={() => void list.refetch()}
    />
  );
}
