/**
 * Account requests in the Dashboard: the list by status (newest first, paged) and, for the request
 * picked, accept (creates the Vendure customer and mails them) or decline with a reason — the Admin
 * API's listAccountRequests, acceptAccountRequest, declineAccountRequest.
 */
import {
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
import { useState } from 'react';
import { ApiError, b2bApi, formatDate, query, toVendureId, type Resource, type ResourceList } from './api.js';
import { ConsoleLink, ErrorNotice, PagedTable, FilterButtons } from './shared.js';

interface AccountRequest {
  status: 'open' | 'accepted' | 'declined';
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  vatId: string | null;
  message: string | null;
  customerId: string | null;
  decisionComment: string | null;
  decidedAt: string | null;
  createdAt: string;
}
type Row = Resource<AccountRequest>;
type Status = AccountRequest['status'] | 'all';

const STATUSES: Array<{ value: Status; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'declined', label: 'Declined' },
  { value: 'all', label: 'All' },
];

export function AccountRequestsPage() {
  const [status, setStatus] = useState<Status>('open');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(25);
  const [picked, setPicked] = useState<Row | null>(null);
  const list = useQuery({
    queryKey: ['suite-b2b', 'account-requests', status, page, perPage],
    queryFn: () =>
      b2bApi<ResourceList<AccountRequest>>(
        'GET',
        `/b2b-account-request${query({ status: status === 'all' ? undefined : status, page, limit: perPage })}`,
      ),
  });
  const columns: Array<ColumnDef<Row>> = [
    { id: 'company', header: 'Company', cell: ({ row }) => row.original.attributes.company },
    {
      id: 'contact',
      header: 'Contact',
      cell: ({ row }) => (
        <>
          {row.original.attributes.firstName} {row.original.attributes.lastName}
          <br />
          <span className="text-muted-foreground">{row.original.attributes.email}</span>
        </>
      ),
    },
    { id: 'status', header: 'Status', cell: ({ row }) => row.original.attributes.status },
    { id: 'createdAt', header: 'Received', cell: ({ row }) => formatDate(row.original.attributes.createdAt) },
    {
      id: 'open',
      header: '',
      cell: ({ row }) => (
        <Button type="button" size="sm" variant="outline" onClick={() => setPicked(row.original)}>
          {row.original.attributes.status === 'open' ? 'Decide' : 'Show'}
        </Button>
      ),
    },
  ];
  return (
    <Page pageId="suite-b2b-account-requests">
      <PageTitle>Account requests</PageTitle>
      <PageLayout>
        <PageBlock column="main" blockId="suite-b2b-account-request-list">
          <FilterButtons
            options={STATUSES}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
          />
          <ErrorNotice error={list.error} />
          <PagedTable columns={columns} list={list} paging={{ page, perPage, setPage, setPerPage }} />
          {list.data && list.data.meta.total === 0 ? (
            <p className="text-muted-foreground text-sm mt-2">
              No {status === 'all' ? '' : `${status} `}account requests. Companies ask for an account on the
              storefront's registration form (POST /store-api/account-request).
            </p>
          ) : null}
        </PageBlock>
        <PageBlock column="side" blockId="suite-b2b-account-request-decision" title="Request">
          {picked ? (
            <Decision key={picked.id} request={picked} onDecided={setPicked} />
          ) : (
            <p className="text-sm text-muted-foreground">Pick a request in the list to accept or decline it.</p>
          )}
          <p className="text-sm mt-4">
            To give the new customer a customer group on accepting, use{' '}
            <ConsoleLink path="/account-requests">the console's account requests</ConsoleLink>.
          </p>
        </PageBlock>
      </PageLayout>
    </Page>
  );
}

function Decision({ request, onDecided }: { request: Row; onDecided: (row: Row) => void }) {
  const client = useQueryClient();
  const [comment, setComment] = useState('');
  const a = request.attributes;
  const decide = useMutation({
    mutationFn: (decision: 'accept' | 'decline') => {
      if (decision === 'decline' && comment.trim() === '')
        throw new ApiError(400, [{ detail: 'Give the reason for declining.', source: { pointer: '/comment' } }]);
      return b2bApi<{ data: Row }>('POST', `/_action/b2b-account-request/${request.id}/${decision}`, {
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
    },
    onSuccess: async (answer) => {
      onDecided(answer.data);
      await client.invalidateQueries({ queryKey: ['suite-b2b', 'account-requests'] });
    },
  });
  const error = decide.error instanceof ApiError ? decide.error : null;
  const commentError = error?.field('comment');
  return (
    <div className="space-y-2 text-sm" data-testid="suite-b2b-account-request">
      <p className="font-semibold">{a.company}</p>
      <p>
        {a.firstName} {a.lastName} · {a.email}
        {a.phone ? ` · ${a.phone}` : ''}
      </p>
      {a.vatId ? <p>VAT id: {a.vatId}</p> : null}
      {a.message ? <p className="whitespace-pre-wrap">“{a.message}”</p> : null}
      <p>
        Status: <strong>{a.status}</strong>
        {a.decidedAt ? ` (${formatDate(a.decidedAt)})` : ''}
      </p>
      {a.customerId ? <p>Customer: #{toVendureId(a.customerId)}</p> : null}
      {a.decisionComment ? <p>Note: {a.decisionComment}</p> : null}
      {a.status === 'open' ? (
        <>
          <Label htmlFor="suite-b2b-decision-comment">Note (the reason, when declining)</Label>
          <Input
            id="suite-b2b-decision-comment"
            value={comment}
            maxLength={1024}
            aria-invalid={commentError ? true : undefined}
            onChange={(event) => setComment(event.target.value)}
          />
          {commentError ? <p className="text-destructive">{commentError}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button type="button" disabled={decide.isPending} onClick={() => decide.mutate('accept')}>
              Accept
            </Button>
            <Button
              type="button"
              variant="destructive"
              disabled={decide.isPending}
              onClick={() => decide.mutate('decline')}
            >
              Decline
            </Button>
          </div>
          {decide.error && !commentError ? <ErrorNotice error={decide.error} /> : null}
        </>
      ) : null}
    </div>
  );
}
