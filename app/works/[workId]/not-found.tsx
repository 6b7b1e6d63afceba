import { NoSuchWork } from "@/components/works/no-such-work";

export default function NotFound() {
  return <NoSuchWork />;
}
