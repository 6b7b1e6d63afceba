// What every text input looks like (frame, focus ring, dark background). Forms add width, padding and,
// where an error is shown on the input, its border colours. A module of its own, without "use client", so
// server components read the strings themselves.
export const inputBaseClass =
  "block rounded-md border bg-white text-sm shadow-sm focus:border-sky-500 focus:ring-1 focus:ring-sky-500 focus:outline-none dark:bg-zinc-950";
export const inputBorderClass = "border-zinc-300 dark:border-zinc-700";
export const inputClass = `${inputBaseClass} ${inputBorderClass} px-3 py-2`;
