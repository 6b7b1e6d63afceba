import type { Metadata } from "next";
import { NotFoundPanel } from "@/components/ui/page-parts";

// The tab says it too (not just "Gatehouse").
export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <NotFoundPanel
      title="Not found"
      text="There is nothing here, or you do not have access to it."
      href="/"
      linkLabel="Back to the start page"
    />
  );
}
