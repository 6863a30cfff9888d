import type { AccountData } from '../../generated/AccountData';
import { ApiError, getJson } from '../../lib/api';
import { useRequest } from '../../lib/use-request';

const ACCOUNT_DATA_PATH = '/api/account';

/** `GET /api/account`: bookings with their courses and balances, payments, online courses; null when the session ended meanwhile. */
export function useAccountData() {
  return useRequest(
    ACCOUNT_DATA_PATH,
    (signal) =>
      getJson<AccountData>(ACCOUNT_DATA_PATH, signal).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }),
    { reportAs: 'load the account' },
  );
}
