// Which verification layers each profile runs (SPEC Part 2), as data: the attempt's pipeline, the dispatch
// (which commands a run freezes) and the run page read it here instead of comparing profile names.
import { PROFILES, type Profile } from "./work-fields";

const LAYERS = ["evidence", "review", "red-team", "mutation"] as const;
export type Layer = (typeof LAYERS)[number];

const PROFILE_LAYERS: Readonly<Record<Profile, readonly Layer[]>> = {
  lite: [],
  standard: ["evidence", "review"],
  full: ["evidence", "review", "red-team", "mutation"],
};

export function hasLayer(profile: Profile, layer: Layer): boolean {
  return PROFILE_LAYERS[profile].includes(layer);
}

// The profiles that run a layer (a step's `profiles`).
export function profilesWith(layer: Layer): readonly Profile[] {
  return PROFILES.filter((p) => hasLayer(p, layer));
}
