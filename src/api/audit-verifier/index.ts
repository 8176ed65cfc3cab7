/** The offline verifier of audit bundles, as the server serves it: its page (GET /audit-verify.html). */
export { AUDIT_VERIFIER_PAGE, auditVerifierRoutes } from './routes';
