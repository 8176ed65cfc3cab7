import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * The heavy half of the markdown block (react-markdown + remark-gfm), loaded only when a result is shown.
 * No raw HTML is rendered; react-markdown's default URL rule keeps exactly the link protocols allowed
 * (http, https, irc, ircs, mailto, xmpp).
 */
export default function MarkdownRenderer({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={defaultUrlTransform}>
      {text}
    </Markdown>
  );
}
