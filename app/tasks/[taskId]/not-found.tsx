import { NotFoundPanel } from "@/components/ui/page-parts";

export default function NotFound() {
  return (
    <NotFoundPanel
      title="No such task"
      text="It does not exist, or it belongs to a Work you have no role on."
      href="/works"
      linkLabel="See your Works"
    />
  );
}
