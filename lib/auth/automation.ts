// The account GATEHOUSE_BOOTSTRAP_TOKEN acts as (lib/startup/bootstrap-access.ts): an admin for automation,
// with no usable password; the setting turns it on and off, not the People page.
export const AUTOMATION_EMAIL = "automation@gatehouse.invalid";
