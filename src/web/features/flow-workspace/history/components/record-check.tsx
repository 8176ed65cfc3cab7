import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { history as t } from '@/lib/strings';
import {
  AUDIT_VERIFIER_URL,
  auditFileUrl,
  type RecordCheckpoint,
  useExecutionCheck,
} from '../api/verify-execution';

/** The hash's first characters: enough to compare by eye with a copy kept elsewhere. */
const SHORT_HASH = 12;

/**
 * The latest signed checkpoint as far as this record goes: which one covers it and whether its signature checks,
 * or that none covers it yet. Nothing from a server that makes no checkpoints (the field is absent).
 */
function CheckpointState({ checkpoint }: { checkpoint: RecordCheckpoint | null | undefined }) {
  if (checkpoint === undefined) return null;
  const covers = checkpoint?.coversRecord === true;
  const signature = checkpoint?.signatureVerified ? t.signatureValid : t.signatureInvalid;
  return (
    <>
      {/* After the check's own words: one line reads "… · Checkpoint #n · time · signature". */}
      <span aria-hidden className="-mx-1 text-slate-400">
        ·
      </span>
      <span
        className="text-slate-600"
        data-testid="history-record-checkpoint"
        data-covers={covers}
        data-signature={checkpoint ? checkpoint.signatureVerified : undefined}
      >
        {covers && checkpoint
          ? `${t.checkpoint(checkpoint.size, formatDateTime(checkpoint.at))} · `
          : t.noCheckpoint}
        {/* A latest checkpoint whose signature does not check is said, whether or not it covers the record. */}
        {checkpoint && (covers || !checkpoint.signatureVerified) ? (
          <span
            className={checkpoint.signatureVerified ? 'text-emerald-700' : 'font-medium text-red-700'}
            data-testid="history-record-signature"
          >
            {covers ? signature : ` · ${signature}`}
          </span>
        ) : null}
      </span>
    </>
  );
}

/**
 * Whether the execution's record is the one the server appended (its events' hashes check), with the hash of
 * its last event; or where it was changed. Links download the record as an audit file.
 */
export function RecordCheck({ executionId }: { executionId: string }) {
  const { data: check, isLoading, error } = useExecutionCheck(executionId);
  return (
    <div
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border px-3 py-2 text-sm ${
        check && !check.verified ? 'border-red-300 bg-red-50' : 'border-slate-200'
      }`}
      data-testid="history-record-check"
    >
      {isLoading ? (
        <span className="text-slate-500">{t.checking}</span>
      ) : error || !check ? (
        <span className="text-red-600">{messageOf(error, t.checkFailed)}</span>
      ) : check.verified ? (
        <span className="text-emerald-700" data-testid="history-record-verified">
          <span className="font-medium">{t.verified}</span>
          <span className="text-slate-500">{` · ${t.verifiedEvents(check.events)}`}</span>
          {check.head ? (
            <span className="text-slate-500">
              {` · ${t.head} `}
              <code className="rounded bg-slate-100 px-1 text-slate-700" title={check.head}>
                {check.head.slice(0, SHORT_HASH)}
              </code>
            </span>
          ) : null}
        </span>
      ) : 'keyMismatch' in check ? (
        <span role="alert" className="font-medium text-red-700" data-testid="history-record-key-mismatch">
          {t.keyMismatch}
        </span>
      ) : (
        <span role="alert" className="font-medium text-red-700" data-testid="history-record-changed">
          {t.recordChanged(check.firstBadPosition)}
        </span>
      )}
      {check ? <CheckpointState checkpoint={check.checkpoint} /> : null}
      <span className="ml-auto flex items-center gap-2 text-slate-600">
        {t.auditFile}
        <a
          href={auditFileUrl(executionId, 'json')}
          download
          className="text-indigo-700 underline hover:text-indigo-900"
          data-testid="history-audit-json"
        >
          JSON
        </a>
        <a
          href={auditFileUrl(executionId, 'csv')}
          download
          className="text-indigo-700 underline hover:text-indigo-900"
          data-testid="history-audit-csv"
        >
          CSV
        </a>
        <a
          href={auditFileUrl(executionId, 'bundle')}
          download
          className="text-indigo-700 underline hover:text-indigo-900"
          title={t.auditBundleTitle}
          data-testid="history-audit-bundle"
        >
          {t.auditBundle}
        </a>
        <a
          href={AUDIT_VERIFIER_URL}
          target="_blank"
          rel="noopener"
          className="text-indigo-700 underline hover:text-indigo-900"
          data-testid="history-audit-verifier"
        >
          {t.auditVerifier}
        </a>
      </span>
    </div>
  );
}
