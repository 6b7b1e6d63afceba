// Text a check printed, as text: a text-direction control in it is shown as its code point (marked), not
// applied to what follows (lib/ansi/direction-controls.ts).
import { directionPieces } from "@/lib/ansi/direction-controls";

export function ShownText({ text }: { text: string }) {
  const pieces = directionPieces(text);
  if (pieces.length === 1 && !pieces[0].control) return <>{text}</>;
  return (
    <>
      {pieces.map((p, i) =>
        p.control ? (
          <abbr
            key={i}
            title={`${p.control}: a text-direction control, shown and not applied`}
            className={
              "rounded-sm bg-amber-100 px-0.5 text-amber-900 no-underline dark:bg-amber-900/40 dark:text-amber-200"
            }
          >
            {`<${p.control}>`}
          </abbr>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
