import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api-client';

export interface User {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** Signed in exactly when this answers with a user; a 401 means signed out, and it is never retried. */
export const userQueryOptions = queryOptions({
  queryKey: ['/api/auth/user'],
  queryFn: getQueryFn<User>({ on401: 'returnNull' }),
  retry: false,
});

export function useUser() {
  const query = useQuery(userQueryOptions);
  return { user: query.data ?? null, isLoading: query.isLoading };
}

/** What the navigation bar calls the user: first name, else e-mail, else the fallback word. */
export function displayNameOf(user: User, fallback: string): string {
  return user.firstName?.trim() || user.email?.trim() || fallback;
}
