import { NotFoundPanel } from "@/components/ui/page-parts";

// A Work that is not there for the reader: its pages' not-found page, and the audit page's ?workId= alike.
export function NoSuchWork() {
  return (
    <NotFoundPanel
      title="No such Work"
      text="It does not exist, or you have no role on it."
      href="/works"
      linkLabel="See your Works"
    />
  );
}
