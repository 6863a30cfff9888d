import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { BlogBody } from '../../../generated/BlogBody';
import type { ContentKind } from '../../../generated/ContentKind';
import { formatShortDate } from '../../../lib/dates';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { adminPut } from '../../lib/admin-api';
import type { ContentDocument } from '../../lib/api-types';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { BodyForm } from './body-form';
import { DatePrices } from './date-prices';
import { formatInstant, londonToday } from '../../lib/labels';
import { documentPath, isKind, KINDS } from './content-kinds';
import { DocumentPreview, DraftActions, Withdraw } from './document-actions';
import { History } from './history';
import { ScormPackage } from './scorm-package';

// One document's page (decision 018): where it is live and whether a draft
// waits, its form (which saves a draft), publishing, the preview, and its
// history. The form shows the draft when there is one, else the live body.

/** An article goes live on its `published` day: before it, it is scheduled. */
export function articleState(article: BlogBody, today = londonToday()): string {
  return article.published > today ? `Scheduled for ${formatShortDate(article.published)}` : 'Published';
}

function DocumentStatus({ doc, savedAt }: { doc: ContentDocument; savedAt: string | null }) {
  const draftAt = savedAt ?? doc.draft_saved_at;
  const by = savedAt ? 'you' : doc.draft_by;
  return (
    <dl className="details">
      <dt>Live address</dt>
      <dd>
        {doc.withdrawn ? (
          <>
            <span className="badge">Off the site</span>
            {' Publish a draft, or go back to a version, to put it back.'}
          </>
        ) : doc.path ? (
          <a href={doc.path}>{doc.path}</a>
        ) : (
          'None of its own: it shows on other pages'
        )}
      </dd>
      <dt>Live version</dt>
      <dd>{doc.version}</dd>
      {doc.kind === 'blog' && (
        <>
          <dt>State</dt>
          <dd>{articleState(doc.published as BlogBody)}</dd>
        </>
      )}
      <dt>Draft</dt>
      <dd>
        {draftAt ? (
          <>
            <span className="badge">Draft waiting</span>
            {` saved${by ? ` by ${by}` : ''}, ${formatInstant(draftAt)}`}
          </>
        ) : (
          'None'
        )}
      </dd>
    </dl>
  );
}

const isOnlineCourse = (doc: ContentDocument) => doc.kind === 'course' && 'online' in doc.published && doc.published.online;

function DocumentPage({ kind, docKey, doc, reload }: { kind: ContentKind; docKey: string; doc: ContentDocument; reload: () => void }) {
  // A draft saved here, until the document is read again after a publish or discard.
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [discards, setDiscards] = useState(0);
  const [saves, setSaves] = useState(0);
  return (
    <>
      <DocumentStatus doc={doc} savedAt={savedAt} />
      <h2>Edit</h2>
      <p>Saving keeps a draft: the live site changes only when you publish it.</p>
      <BodyForm
        // A new live version, or a draft thrown away, starts the form again from what the server has.
        key={`${doc.version} ${doc.draft_saved_at ?? ''} ${discards}`}
        kind={kind}
        docKey={docKey}
        body={doc.draft ?? doc.published}
        submit="Save draft"
        send={async ({ body }) => {
          const answer = await adminPut<{ draft_saved_at: string }>(documentPath(kind, docKey, 'draft'), { body });
          setSavedAt(answer.draft_saved_at);
          setSaves((count) => count + 1);
          return `Draft saved, ${formatInstant(answer.draft_saved_at)}. Publish it to make it live.`;
        }}
      />
      <DraftActions
        kind={kind}
        docKey={docKey}
        hasDraft={savedAt !== null || doc.draft !== null}
        changed={(what) => {
          setSavedAt(null);
          if (what === 'discarded') setDiscards((count) => count + 1);
          reload();
        }}
      />
      {kind === 'course' && !isOnlineCourse(doc) && <DatePrices dates={doc.dates} />}
      {isOnlineCourse(doc) && <ScormPackage courseId={docKey} />}
      <DocumentPreview kind={kind} docKey={docKey} title={doc.title} refresh={saves} lessons={isOnlineCourse(doc)} />
      {doc.withdrawable && <Withdraw kind={kind} docKey={docKey} withdrawn={reload} />}
      <History kind={kind} docKey={docKey} live={doc.version} withdrawn={doc.withdrawn} revisions={doc.revisions} reverted={reload} />
    </>
  );
}

function Editor({ kind, docKey }: { kind: ContentKind; docKey: string }) {
  const doc = useAdminData<ContentDocument>(documentPath(kind, docKey));
  const noun = KINDS[kind].noun;
  return (
    <>
      <PageHeading>{doc.data ? `Edit ${noun}: ${doc.data.title}` : `Edit ${noun}`}</PageHeading>
      <p>
        <Link to={`${paths.content}?kind=${kind}`}>{`Content list: ${KINDS[kind].plural}`}</Link>
      </p>
      <RequestView request={doc} what={`the ${noun}`}>
        {(found) => <DocumentPage kind={kind} docKey={docKey} doc={found} reload={doc.retry} />}
      </RequestView>
    </>
  );
}

export function ContentEditorScreen() {
  const { kind, key = '' } = useParams();
  if (!isKind(kind)) {
    return (
      <>
        <PageHeading>Content</PageHeading>
        <p className="refusal">There is no such kind of content.</p>
      </>
    );
  }
  // A new key is another document: its page starts afresh.
  return <Editor key={`${kind}/${key}`} kind={kind} docKey={key} />;
}
