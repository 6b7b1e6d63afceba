// A JSON answer as a test reads it: any field or element may be read, and what it holds is then
// checked with expect(). (Typed as every JSON shape at once, so reading a field needs no cast.)
export type Json = string & { [key: string]: Json } & Json[];
