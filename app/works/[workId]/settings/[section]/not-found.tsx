"use client";
import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/ui/page-parts";

// An unknown section of a Work's settings (the navigation beside it lists the real ones).
export default function NotFound() {
  const { workId } = useParams<{ workId: string }>();
  return (
    <NotFoundPanel
      title="No such section"
      text="The settings of this Work have the sections listed in the navigation."
      href={`/works/${workId}/settings`}
      linkLabel="Open the checks"
    />
  );
}
