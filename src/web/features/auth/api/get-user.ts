import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, ApiError, answerOf, client } from '@/lib/api-client';

export type User = AnswerOf<'/api/auth/user'>;

/** Signed in exactly when this answers with a user; a 401 means signed out, and it is never retried. */
export const userQueryOptions = queryOptions({
  queryKey: ['/api/auth/user'],
  queryFn: async ({ signal }): Promise<User | null> => {
    try {
      return answerOf(await client.GET('/api/auth/user', { signal }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
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
