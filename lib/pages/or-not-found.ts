// Pages turn "not found" from a service into Next's not-found page; other errors reach error.tsx. A page's
// reads take their ids from its address, so one the service refuses as malformed (attempt "abc") names
// nothing there either: a 404 as well, not a server error.
import { notFound } from "next/navigation";
import { isAppError } from "../errors";

export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && (error.code === "not_found" || error.code === "validation")) notFound();
    throw error;
  }
}
