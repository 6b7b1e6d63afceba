// Vitest global setup: the native spawner is the only way commands start, so the tests run the one
// built from the current spawner.c (rebuilt here when the source is newer; the install builds it too).
import { buildNative } from "../../scripts/build-native.mjs";

export default function setup(): void {
  buildNative({ quiet: true });
}
