import type { UserData } from '../generated/UserData';
import { postJson } from './api';

// The account data, read from the product's GraphQL API with the
// signed-in user's session (decision 014). Every answer holds only the
// caller's own rows; the server checks that, not this file.

export const GRAPHQL_PATH = '/api/graphql';

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string }[];
}

/** Runs `query` with `variables`; a query the server refuses throws its first message. */
export async function queryAccountData<T>(query: string, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  const answer = await postJson<GraphqlAnswer<T>>(GRAPHQL_PATH, { query, variables }, { signal });
  if (answer.errors?.length || !answer.data) throw new Error(answer.errors?.[0]?.message ?? 'The account data was empty.');
  return answer.data;
}

/** The user list by sign-in id, whose first entry is `userData`. */
export const USER_DATA_QUERY = `query UserData($id: ID!) {
  user(cognito_id: $id) {
    id cognito_id email title given_name family_name gender birthday contact_number points elearning_id stripe_id set_password email_verified
  }
}`;

/** The signed-in user's record (`userData`), or null when the id is not theirs. */
export async function fetchUserData(id: string, signal?: AbortSignal): Promise<UserData | null> {
  const data = await queryAccountData<{ user: UserData[] }>(USER_DATA_QUERY, { id }, signal);
  return data.user[0] ?? null;
}
