// Runs once when the server starts: recover runs the last process left behind, start the runner,
// create the demo on an empty database.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startGatehouse } = await import("./lib/startup/start-gatehouse");
  await startGatehouse();
}
