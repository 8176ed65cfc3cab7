import { atom, useAtom, useSetAtom } from 'jotai';
import { useEffect } from 'react';

/** The step whose card was asked to come into view and open; its card clears the request once done. */
const openStepCardAtom = atom<string | null>(null);

/** Asks a step's card to come into view and open, e.g. from the step list. */
export const useOpenStepCard = () => useSetAtom(openStepCardAtom);

/** Calls `open` when this step's card is asked for. */
export function useOpenStepCardRequest(stepId: string, open: () => void) {
  const [requested, setRequested] = useAtom(openStepCardAtom);
  useEffect(() => {
    if (requested !== stepId) return;
    // Cleared at once, so asking for the same card again is a new request.
    setRequested(null);
    open();
  }, [requested, stepId, open, setRequested]);
}
