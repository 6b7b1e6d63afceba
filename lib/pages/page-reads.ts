// Reads a page's parts share within one request: the layout, the page and its title (generateMetadata) ask
// for the same Work, and React's request cache answers all but the first from memory.
import { cache } from "react";
import { getPageActor } from "../auth/page-actor";
import { readWork } from "../services/works";

export const readPageWork = cache(async (workId: string) => readWork(await getPageActor(), workId));
