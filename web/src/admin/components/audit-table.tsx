import type { AuditEntry } from '../lib/api-types';
import { formatInstant } from '../lib/labels';
import { columnsOf, DataTable } from './data-table';

// Audit entries (decision 017), as the audit log and an order's trail show
// them: who did what to which record, in words with the action's code
// beside them, and the record before and after.

const column = columnsOf<AuditEntry>();

function Change({ entry }: { entry: AuditEntry }) {
  if (entry.before == null && entry.after == null) return 'None recorded';
  return (
    <details>
      <summary>
        Before and after{' '}<span className="visually-hidden">{`${entry.action} at ${formatInstant(entry.at)}`}</span>
      </summary>
      <p className="change-label">Before</p>
      <pre>{entry.before == null ? 'Nothing' : JSON.stringify(entry.before, null, 2)}</pre>
      <p className="change-label">After</p>
      <pre>{entry.after == null ? 'Nothing' : JSON.stringify(entry.after, null, 2)}</pre>
    </details>
  );
}

const columns = column.columns([
  column.accessor('at', { header: 'When', cell: (info) => formatInstant(info.getValue()) }),
  column.accessor('actorName', {
    header: 'Who',
    cell: (info) => (
      <>
        {info.getValue()}
        <br />
        <span className="muted">{info.row.original.actorEmail}</span>
      </>
    ),
  }),
  column.accessor('summary', {
    header: 'Action',
    cell: (info) => (
      <>
        {info.getValue()}
        <br />
        <code className="muted">{info.row.original.action}</code>
      </>
    ),
  }),
  column.accessor((entry) => `${entry.entity} ${entry.entityId}`, { id: 'entity', header: 'Record' }),
  column.display({ id: 'change', header: 'Change', cell: (info) => <Change entry={info.row.original} /> }),
]);

export function AuditTable({ caption, entries }: { caption: string; entries: AuditEntry[] }) {
  return <DataTable caption={caption} columns={columns} rows={entries} rowId={(entry) => String(entry.id)} empty="Nothing recorded." initialSort={[{ id: 'at', desc: true }]} />;
}
