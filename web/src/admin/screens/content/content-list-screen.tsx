import { Link, useSearchParams } from 'react-router';
import type { ContentKind } from '../../../generated/ContentKind';
import { columnsOf, DataTable } from '../../components/data-table';
import { PageHeading } from '../../components/page-heading';
import { RequestView, ResultCount } from '../../components/request-view';
import type { ContentListItem } from '../../lib/api-types';
import { formatInstant } from '../../lib/labels';
import { paths } from '../../paths';
import { canCreate, isKind, KIND_ORDER, KINDS, useContentList } from './content-kinds';

// Every content document (decision 018), one kind at a time or all: each
// title opens its editor, its address the live page; a waiting draft says
// so. The kind shown is in the address (`?kind=course`).

const column = columnsOf<ContentListItem>();
const columns = column.columns([
  column.accessor('title', {
    header: 'Title',
    cell: (info) => (
      <>
        <Link to={paths.contentDocument(info.row.original.kind, info.row.original.key)}>{info.getValue()}</Link>
        {info.row.original.package && <span className="badge">Package</span>}
      </>
    ),
  }),
  column.accessor((item) => KINDS[item.kind]?.plural ?? item.kind, { id: 'kind', header: 'Kind' }),
  column.accessor('path', {
    header: 'Address',
    enableSorting: false,
    cell: (info) => {
      if (info.row.original.withdrawn) return <span className="badge">Off the site</span>;
      const path = info.getValue();
      return path ? <a href={path}>{path}</a> : 'None';
    },
  }),
  column.accessor('draft', { header: 'Draft', cell: (info) => (info.getValue() ? <span className="badge">Draft waiting</span> : '') }),
  column.accessor('updated_at', { header: 'Last updated', cell: (info) => formatInstant(info.getValue()) }),
]);

function KindFilter({ chosen, documents }: { chosen: ContentKind | null; documents: ContentListItem[] }) {
  const count = (kind: ContentKind | null) => documents.filter((item) => kind === null || item.kind === kind).length;
  const link = (kind: ContentKind | null, label: string) => (
    <li key={kind ?? 'all'}>
      <Link to={kind ? `${paths.content}?kind=${kind}` : paths.content} aria-current={chosen === kind ? 'page' : undefined}>
        {`${label} (${count(kind)})`}
      </Link>
    </li>
  );
  return (
    <nav aria-label="Kinds of content">
      <ul className="kind-filter">
        {link(null, 'All')}
        {KIND_ORDER.map((kind) => link(kind, KINDS[kind].plural))}
      </ul>
    </nav>
  );
}

function NewLinks({ chosen }: { chosen: ContentKind | null }) {
  const kinds = (chosen ? [chosen] : KIND_ORDER).filter(canCreate);
  if (kinds.length === 0) return null;
  return (
    <ul className="button-row new-links">
      {kinds.map((kind) => (
        <li key={kind}>
          <Link className="button button-secondary button-small" to={paths.newContent(kind)}>{`New ${KINDS[kind].noun}`}</Link>
        </li>
      ))}
    </ul>
  );
}

export function ContentListScreen() {
  const [params] = useSearchParams();
  const asked = params.get('kind') ?? undefined;
  const chosen = isKind(asked) ? asked : null;
  const list = useContentList();
  const shown = list.data?.documents.filter((item) => chosen === null || item.kind === chosen);
  const caption = chosen ? `Content: ${KINDS[chosen].plural}` : 'Content';
  return (
    <>
      <PageHeading>Content</PageHeading>
      <p>Edit the site’s words and pictures. Saving keeps a draft; the live site changes when you publish.</p>
      <NewLinks chosen={chosen} />
      <RequestView request={list} what="the content">
        {({ documents }) => (
          <>
            <KindFilter chosen={chosen} documents={documents} />
            <ResultCount count={shown?.length} one="document" many="documents" />
            <DataTable caption={caption} columns={columns} rows={shown ?? []} rowId={(item) => `${item.kind}/${item.key}`} empty="Nothing of this kind yet." initialSort={[{ id: chosen ? 'title' : 'kind', desc: false }]} />
          </>
        )}
      </RequestView>
    </>
  );
}
