import { useMembers } from '@/features/workspaces';
import { reviewPanel as t } from '../strings';

/**
 * The names of the people a review speaks of, as the workspace's members list gives them: a person no longer
 * in it is named as having left; while the list loads, nobody is named yet.
 */
export function usePersonName(workspaceId: string | null): (userId: string) => string {
  const members = useMembers(workspaceId ?? '', workspaceId !== null);
  return (userId) => {
    if (!members.data) return t.someone;
    return members.data.find((member) => member.userId === userId)?.name || t.formerMember;
  };
}

/** Names as one phrase: 'An', 'An và Bình', 'An, Bình và Chi'. */
export function namesOf(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${t.and} ${names.at(-1)}`;
}
