// One Gatehouse server per Playwright worker: a "lane" is a worker's parallel index (kept when a worker is
// replaced after a failure), with its own port (E2E_PORT + lane), data dir and signed-in admin. Specs in
// different lanes share nothing, so they run side by side; specs in one lane run one after another on one
// server, as they all did before. Playwright evaluates this (through playwright.config.ts and the specs)
// again in each worker, where TEST_PARALLEL_INDEX says the lane.
import path from "node:path";

const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
// Two lanes fill a 2-core machine (the browser, the server and its checks each wait much of the time).
export const E2E_LANES = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
export const LANES = Array.from({ length: E2E_LANES }, (_, i) => i);

const thisLane = (): number => Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const lanePort = (lane: number): number => E2E_PORT + lane;
export const laneUrl = (lane = thisLane()): string => `http://127.0.0.1:${lanePort(lane)}`;
// The lanes' data dirs: in the checkout's .e2e-data, or under E2E_DATA_DIR (CI puts it on a tmpfs).
const DATA_ROOT = process.env.E2E_DATA_DIR ?? path.resolve(__dirname, "..", "..", ".e2e-data");
export const laneDataDir = (lane: number): string => path.join(DATA_ROOT, String(lane));
// The admin's signed-in browser state on a lane's server (written by auth.setup.ts).
export const adminState = (lane = thisLane()): string => `e2e/.auth/admin-${lane}.json`;
