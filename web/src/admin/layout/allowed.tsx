import type { ReactNode } from 'react';
import { PageHeading } from '../components/page-heading';
import { NO_ACCESS } from '../lib/admin-api';
import type { Permission } from '../lib/api-types';
import { opens } from '../lib/permissions';
import { useStaff } from '../lib/staff-session';

/** A screen, when the signed-in role has any of the permissions it `needs`; otherwise the refusal the server would give. */
export function Allowed({ needs, children }: { needs: readonly Permission[]; children: ReactNode }) {
  const staff = useStaff();
  if (opens(staff, needs)) return children;
  return (
    <>
      <PageHeading>No access</PageHeading>
      <p className="refusal">{NO_ACCESS}</p>
    </>
  );
}
