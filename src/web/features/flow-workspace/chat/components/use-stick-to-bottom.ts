import { useCallback, useEffect, useRef } from 'react';

/** How close to the end still counts as reading the latest message. */
const NEAR_END_PX = 48;

/**
 * Keeps a scrolling list at its end while it grows (new messages, streamed tokens, markdown that renders
 * late), unless the user has scrolled up to read; `follow` returns to the end, as after sending.
 */
export function useStickToBottom<Scroller extends HTMLElement, Content extends HTMLElement>() {
  const scroller = useRef<Scroller>(null);
  const content = useRef<Content>(null);
  const following = useRef(true);

  useEffect(() => {
    const box = scroller.current;
    const inner = content.current;
    if (!box || !inner || typeof ResizeObserver === 'undefined') return;
    const onScroll = () => {
      following.current = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_END_PX;
    };
    const observer = new ResizeObserver(() => {
      if (following.current) box.scrollTop = box.scrollHeight;
    });
    box.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(inner);
    return () => {
      box.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, []);

  const follow = useCallback(() => {
    following.current = true;
  }, []);

  return { scroller, content, follow };
}
