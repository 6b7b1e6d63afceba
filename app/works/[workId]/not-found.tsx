import { NotFoundPanel } from "@/components/ui/page-parts";

export default function NotFound() {
  return (
    <NotFoundPanel
      title="No such Work"
      text="It does not exist, or you have no role on it."
      href="/works"
      linkLabel="See your Works"
    />
  );
}
