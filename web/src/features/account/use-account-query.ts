import { queryAccountData } from '../../lib/account-data';
import { useRequest } from '../../lib/use-request';

/**
 * One GraphQL read of the account data (decision 014) for a part of the account,
 * named `name` for its key and its error report; `retry` reads it again
 * after a change.
 */
export function useAccountQuery<T>(name: string, query: string) {
  return useRequest(`account ${name}`, (signal) => queryAccountData<T>(query, {}, signal), { reportAs: `load your ${name}` });
}
