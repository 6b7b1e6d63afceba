// Where secret masking plugs into the output path: every byte a check or the agent prints passes through
// an OutputMasker before it is stored, tailed or shown.
export interface OutputMasker {
  // Returns what can be released now; may hold back a few bytes that could begin a secret.
  push(chunk: Buffer): Buffer;
  // Releases what was held back, masked.
  end(): Buffer;
  // Masks a whole string (briefs, messages) with the same rules.
  maskText(text: string): string;
}

export const NO_MASKING: OutputMasker = {
  push: (chunk) => chunk,
  end: () => Buffer.alloc(0),
  maskText: (text) => text,
};
