import { ruleViolated } from '../../domain/errors';
import type { AuditLog, SignedCheckpoint } from './checkpoints';
import { base64, type ProvedStream } from './log-tree';
import { AUDIT_LOG_ORIGIN } from './signing-key';

/** The name and version of the bundle's format. */
export const AUDIT_BUNDLE_FORMAT = 'workbench-audit-bundle/v1';

/** How many earlier checkpoints a bundle may carry consistency proofs from. */
export const MAX_SINCE = 10;

export interface CheckpointText {
  size: number;
  at: string;
  note: string;
}

export interface AuditBundle {
  format: typeof AUDIT_BUNDLE_FORMAT;
  record: { kind: 'execution' | 'flow' | 'workspace'; id: string; from?: string; to?: string };
  origin: string;
  publicKey: string;
  checkpoint: CheckpointText;
  /** From each earlier size asked for: that checkpoint's text when the log still holds it, and the proof. */
  consistency: { from: CheckpointText | { size: number; at: null; note: null }; proof: string[] }[];
  streams: ProvedStream[];
}

export const checkpointText = (checkpoint: SignedCheckpoint): CheckpointText => ({
  size: checkpoint.size,
  at: checkpoint.at,
  note: checkpoint.note,
});

/** The checkpoint of a size as a proof names it: its text, or the size alone when the log holds none of it. */
export const checkpointRef = (size: number, checkpoint: SignedCheckpoint | null) =>
  checkpoint === null ? { size, at: null, note: null } : checkpointText(checkpoint);

/**
 * The audit bundle of a record: its streams' events with their proofs at a checkpoint that covers them (one
 * signed now if the latest does not), the signed checkpoint, the public key, and a consistency proof from
 * each earlier checkpoint named in `since`. Everything an outsider needs to check it offline.
 */
export async function auditBundle(
  auditLog: AuditLog,
  record: AuditBundle['record'],
  streamIds: readonly string[],
  since: readonly number[],
): Promise<AuditBundle> {
  const checkpoint = await auditLog.checkpointCovering(streamIds);
  const consistency: AuditBundle['consistency'] = [];
  for (const size of since) {
    if (size > checkpoint.size) {
      throw ruleViolated(
        `since: checkpoint #${size} mới hơn checkpoint của bundle này (#${checkpoint.size})`,
      );
    }
    // The proof is the tree's alone: it is given for a size whose checkpoint the log no longer holds (the
    // auditor holds it), which is when it matters most.
    const earlier = await auditLog.checkpointOfSize(size);
    consistency.push({
      from: checkpointRef(size, earlier),
      proof: base64(await auditLog.consistencyProof(size, checkpoint.size)),
    });
  }
  return {
    format: AUDIT_BUNDLE_FORMAT,
    record,
    origin: AUDIT_LOG_ORIGIN,
    publicKey: auditLog.verifierKey,
    checkpoint: checkpointText(checkpoint),
    consistency,
    streams: await auditLog.provedStreams(streamIds, checkpoint.size),
  };
}
