// Works around Prisma 6.19's pg adapter failing on PostgreSQL's `name`/`char` catalog columns
// ("Column type 'name' could not be deserialized"): report them as text before the adapter reads them.
import pg from "pg";

const TEXT_FOR: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 };

type QueryResultLike = { fields?: { dataTypeID: number }[] };

function asTextTypes<T>(result: T): T {
  const fields = (result as QueryResultLike | undefined)?.fields;
  if (fields) for (const field of fields) field.dataTypeID = TEXT_FOR[field.dataTypeID] ?? field.dataTypeID;
  return result;
}

export class TextNameClient extends pg.Client {
  // pg calls query either with a trailing callback (from a Pool) or expecting a promise.
  query(...args: unknown[]): never {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      const callback = last as (err: unknown, res: unknown) => void;
      args[args.length - 1] = (err: unknown, res: unknown) => callback(err, err ? res : asTextTypes(res));
      return (super.query as (...a: unknown[]) => unknown)(...args) as never;
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (out && typeof (out as Promise<unknown>).then === "function") {
      return (out as Promise<unknown>).then(asTextTypes) as never;
    }
    return out as never;
  }
}
