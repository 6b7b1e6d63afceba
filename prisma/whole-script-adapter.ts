// Prisma 6.19's pg adapter applies a migration by splitting its script at every ";" and sending the pieces
// one by one: that cuts a function body ($$ … $$) apart, and a fresh PostgreSQL database stopped at migration
// check_days ("syntax error at or near …"), so `npm start` on PostgreSQL could not set one up. PostgreSQL takes
// a whole script as one simple query (no parameters), all of it or none: it is sent so.
type ScriptConnection = {
  executeScript(script: string): Promise<void>;
  underlyingDriver(): { query(sql: string): Promise<unknown> };
  // The adapter's own: turns a driver error into the one Prisma reports.
  onError(error: unknown): never;
};

export function withWholeScripts<F extends { connect(): Promise<unknown> }>(factory: F): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const connection = (await connect()) as ScriptConnection;
    connection.executeScript = async (script: string) => {
      try {
        await connection.underlyingDriver().query(script);
      } catch (error) {
        connection.onError(error);
      }
    };
    return connection;
  };
  return factory;
}
