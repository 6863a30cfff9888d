import { jsonResponse } from './api-stub';
import type { AuthSession } from '../generated/AuthSession';
import type { AuthUser } from '../generated/AuthUser';
import type { UserData } from '../generated/UserData';

export const amara: AuthUser = {
  sub: 'u-amara', email: 'amara@example.com', given_name: 'Amara', family_name: 'Okafor', phone_number: '+447700900123', email_verified: true,
};

export const amaraData: UserData = {
  id: 'u-amara', cognito_id: 'u-amara', email: 'amara@example.com', title: null, given_name: 'Amara', family_name: 'Okafor', gender: null,
  birthday: null, contact_number: '+447700900123', points: 0, elearning_id: null, stripe_id: 'cus_amara', set_password: true,
  email_verified: true,
};

export const signedIn: AuthSession = {
  user: amara,
  claims: { sub: 'u-amara', 'https://hasura.io/jwt/claims': { 'x-hasura-user-id': 'u-amara', 'x-hasura-default-role': 'user' } },
};

export const signedOut: AuthSession = { user: null, claims: null };

/** Amara just after signing up: signed in, her email not yet proven by the mailed link. */
export const unconfirmed: AuthSession = { ...signedIn, user: { ...amara, email_verified: false } };

/** The GraphQL answer of a signed-in Amara: her user record (`userData`). */
export const amaraUserDataAnswer = { 'POST /api/graphql': () => jsonResponse(200, { data: { user: [amaraData] } }) };
