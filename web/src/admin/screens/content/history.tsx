import type { ContentKind } from '../../../generated/ContentKind';
import { CommandStatus } from '../../components/command-status';
import { ConfirmStep } from '../../components/confirm-step';
import { useCommand } from '../../components/use-command';
import { adminPost } from '../../lib/admin-api';
import type { ContentRevision } from '../../lib/api-types';
import { formatInstant, labelOf } from '../../lib/labels';
import { documentPath } from './content-kinds';

// A document's published versions, newest first (decision 018). Going back
// to one publishes its body again as a new version, so history only grows
// and a revert can itself be reverted; a document taken off the site comes
// back that way too.

const ACTIONS: Record<string, string> = {
  load: 'Loaded from the content pack',
  publish: 'Published',
  revert: 'Reverted to an earlier version',
  withdraw: 'Taken off the site',
};

interface HistoryProps {
  kind: ContentKind;
  docKey: string;
  /** The live version, which there is no going back to. */
  live: number;
  /** The document is off the site: its newest version took it off. */
  withdrawn: boolean;
  revisions: ContentRevision[];
  reverted: () => void;
}

export function History({ kind, docKey, live, withdrawn, revisions, reverted }: HistoryProps) {
  const reverting = useCommand();
  return (
    <>
      <h2>History</h2>
      <CommandStatus command={reverting} />
      <ol className="revisions">
        {revisions.map((revision) => (
          <li key={revision.version}>
            <p>
              <strong>{`Version ${revision.version}`}</strong>
              {revision.version === live && <span className="badge">{withdrawn ? 'Off the site' : 'Live'}</span>}
            </p>
            <p>{`${labelOf(ACTIONS, revision.action)}${revision.by ? ` by ${revision.by}` : ''}, ${formatInstant(revision.at)}`}</p>
            {revision.version !== live && (
              <ConfirmStep
                ask={`Revert to version ${revision.version}`}
                confirm={`Yes, make version ${revision.version} live`}
                keep="Keep the live version"
                busy={reverting.busy}
                onConfirm={() =>
                  void reverting.run(async () => {
                    const answer = await adminPost<{ version: number }>(documentPath(kind, docKey, 'revert'), { version: revision.version });
                    reverted();
                    return `Version ${revision.version} is live again, as version ${answer.version}.`;
                  })
                }
              >
                <p>{`Publish version ${revision.version} again? It becomes the live version at once${withdrawn ? ', back on the site' : ''}; any draft stays as it is.`}</p>
              </ConfirmStep>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
