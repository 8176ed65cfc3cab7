-- An invitation can be revoked (by an owner, or with its inviter's removal or loss of the owner role): its
-- link then answers as missing, and it leaves the owners' list of pending invitations. Filled by the
-- projection from InvitationRevoked.
ALTER TABLE workspace_invitations
  ADD COLUMN revoked_at timestamptz,
  ADD COLUMN revoked_reason text CHECK (revoked_reason IN ('revoked', 'inviter-removed', 'inviter-demoted'));
-- The owners' list of a workspace's pending invitations, in its order (newest first, id last).
CREATE INDEX workspace_invitations_pending_idx ON workspace_invitations (workspace_id, created_at DESC, id DESC)
  WHERE accepted_by IS NULL AND revoked_at IS NULL;
