import {
  createContext,
  type DialogHTMLAttributes,
  type KeyboardEvent,
  useCallback,
  useContext,
  useLayoutEffect,
  useRef,
} from "react";
import { Button, type ButtonProps } from "./button.tsx";

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first, Shift+Tab from the first (or the dialog itself) to the last. */
function trapTab(e: KeyboardEvent<HTMLDialogElement>) {
  const el = e.currentTarget;
  if (e.key !== "Tab") return;
  const focusable = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((n) => n.getClientRects().length > 0);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || active === el)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

const CloseContext = createContext<() => void>(() => {});

export type DialogProps = Omit<DialogHTMLAttributes<HTMLDialogElement>, "open" | "onClose"> & {
  /** After the dialog closed (Escape or a `DialogClose`); the owner unmounts it. */
  onClose?: () => void;
};

/**
 * A modal dialog, open while it is mounted: shown with `showModal()` (the page behind it inert) and focused;
 * Escape and a `DialogClose` inside it close it, then call `onClose`; Tab stays inside it; focus goes back
 * to the element that had it before, as the dialog unmounts. Other props go to the `<dialog>` element.
 */
export function Dialog({ onClose, onKeyDown, children, ...props }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const latest = useRef(onClose);
  latest.current = onClose;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!el.open) el.showModal();
    el.focus();
    const closed = () => latest.current?.();
    el.addEventListener("close", closed);
    return () => {
      el.removeEventListener("close", closed);
      if (el.open) el.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  const close = useCallback(() => ref.current?.close(), []);
  return (
    <dialog
      ref={ref}
      tabIndex={-1}
      {...props}
      onKeyDown={(e) => {
        trapTab(e);
        onKeyDown?.(e);
      }}
    >
      <CloseContext.Provider value={close}>{children}</CloseContext.Provider>
    </dialog>
  );
}

/** A button that closes the dialog it is in. */
export function DialogClose(props: Omit<ButtonProps, "onClick">) {
  const close = useContext(CloseContext);
  return <Button {...props} onClick={close} />;
}
