import { redirect } from "next/navigation";

// The start page becomes the delivery owners' inbox; until then, the Works.
export default function Home() {
  redirect("/works");
}
