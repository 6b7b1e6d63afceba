// A <details> whose open state its owner keeps (the run page keeps its rows' in the address): the browser opens
// or closes it itself, then says so; opened by its `open` prop (a load, Back), it says so too, which is no change
// and is not passed on.
import type { SyntheticEvent } from "react";

export function onDetailsToggle(isOpen: boolean, onOpenChange: (isOpen: boolean) => void) {
  return (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open !== isOpen) onOpenChange(event.currentTarget.open);
  };
}
