import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Packages with native parts or large runtimes stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  // The build type-checks the app; tests and tooling are checked by `npm run typecheck`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
};

export default nextConfig;
