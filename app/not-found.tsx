import { NotFoundPanel } from "@/components/ui/page-parts";

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
