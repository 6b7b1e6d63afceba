import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Packages with native parts or large runtimes stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg", "shiki"],
  poweredByHeader: false,
};

export default nextConfig;
