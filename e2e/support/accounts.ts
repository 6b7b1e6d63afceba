// The accounts each end-to-end server starts with (see playwright.config.ts).
export const ADMIN = { email: "admin@e2e.example", password: "e2e-admin-password-123" };
export const E2E_BOOTSTRAP_TOKEN = "gh_e2e_bootstrap_token_for_the_shared_server_0001";
