import type { AuthSession } from '../generated/AuthSession';
import type { AuthUser } from '../generated/AuthUser';
import type { UserData } from '../generated/UserData';

export const amara: AuthUser = {
  sub: 'u-amara', email: 'amara@example.com', given_name: 'Amara', family_name: 'Okafor', phone_number: '+447700900123',
};

export const amaraData: UserData = {
  id: 'u-amara', email: 'amara@example.com', given_name: 'Amara', family_name: 'Okafor', contact_number: '+447700900123',
  stripe_id: 'cus_amara',
};

export const signedIn: AuthSession = {
  user: amara,
  claims: { sub: 'u-amara', 'https://hasura.io/jwt/claims': { 'x-hasura-user-id': 'u-amara', 'x-hasura-default-role': 'user' } },
  userData: amaraData,
};

export const signedOut: AuthSession = { user: null, claims: null, userData: null };
