import { useParams } from 'react-router';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { apiPath } from '../../lib/admin-api';
import type { Enquiry } from '../../lib/api-types';
import { ENQUIRY_KIND_LABELS, labelOf } from '../../lib/labels';
import { useStaffNameChoices } from '../../lib/reference-data';
import { useAdminData } from '../../lib/use-admin-data';
import { EnquiryView } from './enquiry-card';

// One enquiry's page: what was asked, the replies mailed from here and
// the form to send one, its status, owner and notes.

export function EnquiryScreen() {
  const { id = '' } = useParams();
  const enquiry = useAdminData<Enquiry>(apiPath('enquiries', id));
  const owners = useStaffNameChoices();
  const found = enquiry.data;
  return (
    <>
      <PageHeading>{found ? `${labelOf(ENQUIRY_KIND_LABELS, found.kind)} from ${found.name}` : 'Enquiry'}</PageHeading>
      <RequestView request={enquiry} what="the enquiry">
        {(loaded) => <EnquiryView enquiry={loaded} owners={owners} reload={enquiry.retry} />}
      </RequestView>
    </>
  );
}
