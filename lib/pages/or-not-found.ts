// Pages turn "not found" from a service into Next's not-found page; other errors reach error.tsx.
import { notFound } from "next/navigation";
import { isAppError } from "../errors";

export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
}
