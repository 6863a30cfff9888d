import { useNavigate, useParams } from 'react-router';
import { CommandStatus } from '../../components/command-status';
import { OrdersTable } from '../../components/orders-table';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useCommand } from '../../components/use-command';
import { adminPost, adminPut, apiPath } from '../../lib/admin-api';
import type { Code, OrderRow } from '../../lib/api-types';
import { CODE_STATE_LABELS } from '../../lib/labels';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { CodeForm } from './code-form';
import { CODES_PATH, discountLabel } from './codes-screen';

// Creating a code, and one code's page: its terms to change, expiring it
// now, and the orders that used it. Decision 017 has no `GET /codes/{code}`:
// the page finds the code in the list.

export function NewCodeScreen() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeading>New discount code</PageHeading>
      <CodeForm
        submit="Create the code"
        send={async (terms) => {
          await adminPost<Code>(CODES_PATH, terms);
          void navigate(paths.code(terms.code));
          return 'Code created.';
        }}
      />
    </>
  );
}

function CodePage({ code, reload }: { code: Code; reload: () => void }) {
  const expiring = useCommand();
  const orders = useAdminData<{ orders: OrderRow[] }>(apiPath('codes', code.code, 'orders'));
  return (
    <>
      <p>
        <strong>{CODE_STATE_LABELS[code.state]}</strong>
        {` · ${discountLabel(code)} · used ${code.uses} time${code.uses === 1 ? '' : 's'}${code.maxUses === null ? '' : ` of ${code.maxUses}`}`}
      </p>
      <h2>Terms</h2>
      <CodeForm
        code={code}
        submit="Save the code"
        send={async (terms) => {
          await adminPut<Code>(apiPath('codes', code.code), terms);
          reload();
          return 'Code saved.';
        }}
      />
      <h2>Expire</h2>
      {code.state === 'expired' ? (
        <p>This code has expired: nobody can use it.</p>
      ) : (
        <>
          <p>Expiring ends the code today: nobody can use it after this.</p>
          <button
            type="button"
            className="button button-danger"
            disabled={expiring.busy}
            onClick={() =>
              void expiring.run(async () => {
                await adminPost<unknown>(apiPath('codes', code.code, 'expire'));
                reload();
                return 'Code expired.';
              })
            }
          >
            Expire the code now
          </button>
        </>
      )}
      <CommandStatus command={expiring} />
      <h2>Orders that used it</h2>
      <RequestView request={orders} what="the orders">
        {({ orders: found }) => <OrdersTable caption={`Orders with ${code.code}`} orders={found} empty="No order has used this code yet." />}
      </RequestView>
    </>
  );
}

export function CodeScreen() {
  const { code = '' } = useParams();
  const codes = useAdminData<{ codes: Code[] }>(CODES_PATH);
  const found = codes.data?.codes.find((candidate) => candidate.code === code);
  return (
    <>
      <PageHeading>{`Code ${code}`}</PageHeading>
      <RequestView request={codes} what="the codes">
        {() => (found ? <CodePage code={found} reload={codes.retry} /> : <p className="refusal">{`There is no code ${code}.`}</p>)}
      </RequestView>
    </>
  );
}
