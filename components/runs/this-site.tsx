"use client";
// This dashboard's own address, as the browser reached it (the server cannot tell what a proxy in front of it
// is called): shown where a command needs it. Before hydration, a placeholder that says what goes there.
import { useSyncExternalStore } from "react";

const noChange = () => () => undefined;

export function ThisSite() {
  const origin = useSyncExternalStore(
    noChange,
    () => window.location.origin,
    () => "<this site>",
  );
  return <>{origin}</>;
}
