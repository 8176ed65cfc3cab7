-- Whether an own key's provider took it: `accepted` when it said so (every key saved before this column was
-- checked so, or saved unchecked as if it had been), `unchecked` when it could not be asked as the key was
-- saved (unreachable): the key is asked about again at its first use; `rejected` when it refused it then,
-- and the key is no longer used (is_active false) until its owner replaces it.
ALTER TABLE user_api_keys
  ADD COLUMN check_status text NOT NULL DEFAULT 'accepted'
    CHECK (check_status IN ('accepted', 'unchecked', 'rejected'));
