import { labelOf } from '../../lib/labels';

// A session's `status` as decision 017's API gives it; one the browser does
// not know yet is shown as it comes.
const SESSION_STATUS_LABELS: Record<string, string> = { active: 'On sale', cancelled: 'Cancelled' };

export const sessionStatusLabel = (status: string) => labelOf(SESSION_STATUS_LABELS, status);

export const isCancelled = (status: string) => status === 'cancelled';
