import { Component, lazy, type ReactNode, Suspense } from 'react';
import { cn } from '@/lib/cn';
import { markdown as t } from '@/lib/strings';

const MarkdownRenderer = lazy(() => import('./markdown-renderer'));

class MarkdownErrorBoundary extends Component<{ raw: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div data-testid="markdown-error">
        <p className="text-sm font-medium text-red-700">{t.failed}</p>
        <pre className="mt-2 whitespace-pre-wrap text-sm text-slate-800">{this.props.raw}</pre>
      </div>
    );
  }
}

/** Renders a model answer as GitHub-flavoured markdown; the raw text shows while the renderer loads. */
export function MarkdownBlock({ text, className }: { text: string; className?: string }) {
  if (!text.trim()) return <p className="text-sm italic text-slate-500">{t.empty}</p>;
  return (
    <div className={cn('markdown-body', className)}>
      <MarkdownErrorBoundary key={text} raw={text}>
        <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
          <MarkdownRenderer text={text} />
        </Suspense>
      </MarkdownErrorBoundary>
    </div>
  );
}
