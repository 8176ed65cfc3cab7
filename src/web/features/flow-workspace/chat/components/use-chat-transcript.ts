import { atom, useAtom } from 'jotai';
import { useCallback } from 'react';
import { type ChatTranscript, emptyTranscript } from './chat-transcript';

/**
 * Chats by flow id. The messages the user sent live nowhere on the server, so they are kept outside the
 * chat screen: going back to run mode and returning does not lose them.
 */
const transcriptsAtom = atom<Record<string, ChatTranscript>>({});

export function useChatTranscript(flowId: string) {
  const [transcripts, setTranscripts] = useAtom(transcriptsAtom);
  const update = useCallback(
    (change: (transcript: ChatTranscript) => ChatTranscript) =>
      setTranscripts((all) => {
        const current = all[flowId] ?? emptyTranscript;
        const next = change(current);
        return next === current ? all : { ...all, [flowId]: next };
      }),
    [flowId, setTranscripts],
  );
  return [transcripts[flowId] ?? emptyTranscript, update] as const;
}
