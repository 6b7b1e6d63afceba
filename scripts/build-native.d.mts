export function buildNative(options?: { quiet?: boolean }): void;
