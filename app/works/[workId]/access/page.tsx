import { redirect } from "next/navigation";

// The Work's people and secrets are sections of its settings now; the old address keeps working.
export default async function AccessPage({ params }: { params: Promise<{ workId: string }> }) {
  const { workId } = await params;
  redirect(`/works/${workId}/settings/access`);
}
