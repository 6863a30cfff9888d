import { useNavigate, useParams } from 'react-router';
import type { ContentKind } from '../../../generated/ContentKind';
import { PageHeading } from '../../components/page-heading';
import { adminPost } from '../../lib/admin-api';
import { paths } from '../../paths';
import { BodyForm } from './body-form';
import { canCreate, CONTENT_PATH, isKind, KINDS } from './content-kinds';

/** A new document of a kind (not the site data): published at once, then edited on its own page. */
export function NewContentScreen() {
  const { kind } = useParams();
  const navigate = useNavigate();
  if (!isKind(kind) || !canCreate(kind)) {
    return (
      <>
        <PageHeading>New content</PageHeading>
        <p className="refusal">That kind of content cannot be added here.</p>
      </>
    );
  }
  const noun = KINDS[kind].noun;
  return (
    <>
      <PageHeading>{`New ${noun}`}</PageHeading>
      <p>{`The new ${noun} is published as soon as it is created.`}</p>
      <BodyForm
        kind={kind}
        docKey=""
        body={null}
        submit={`Create the ${noun}`}
        send={async ({ key, body }) => {
          const created = await adminPost<{ kind: ContentKind; key: string }>(`${CONTENT_PATH}/${kind}`, { key, body });
          void navigate(paths.contentDocument(created.kind, created.key));
          // Its own page says what it is.
          return '';
        }}
      />
    </>
  );
}
