/** What other features use of the auth feature: the signed-in user. */
export { type User, userQueryOptions, useUser } from './api/get-user';
