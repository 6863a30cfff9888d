import { useRequest, type Request } from '../../lib/use-request';
import { adminGet } from './admin-api';

/**
 * Loads `GET path` with the site's one request hook (decision 012): a new
 * path loads again, `null` loads nothing, and the last answer stays shown
 * while the next loads.
 */
export function useAdminData<T>(path: string | null): Request<T> {
  return useRequest(path, (signal) => adminGet<T>(path ?? '', signal));
}
