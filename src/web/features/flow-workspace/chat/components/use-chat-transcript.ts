import { atom, useAtom } from 'jotai';
import { useCallback } from 'react';
import { type ChatTranscript, emptyTranscript } from './chat-transcript';

/**
 * Chats by flow id, kept outside the chat screen: going back to run mode and returning shows the chat as
 * it was (cleared, say), where a reload opens it afresh from the execution.
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
