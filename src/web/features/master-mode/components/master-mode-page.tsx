import { useLocation, useSearch } from 'wouter';
import { MasterModeScreen } from './master-mode-screen';
import { MasterModeStart } from './master-mode-start';

/** /master-mode: the start page, or with `?sessionId=` that session's sheet (so a reload keeps it). */
export function MasterModePage() {
  const sessionId = new URLSearchParams(useSearch()).get('sessionId');
  const [, navigate] = useLocation();
  if (!sessionId) {
    return <MasterModeStart onOpen={(id) => navigate(`/master-mode?sessionId=${encodeURIComponent(id)}`)} />;
  }
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <MasterModeScreen key={sessionId} sessionId={sessionId} onBack={() => navigate('/master-mode')} />
    </div>
  );
}
