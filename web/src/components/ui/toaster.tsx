import * as ToastPrimitive from "@radix-ui/react-toast";
import { cn } from "../../lib/cn.ts";
import { dismissToast, TOAST_DURATION_MS, useToasts } from "./use-toast.ts";

/**
 * The notification region: F8 focuses it, swiping right dismisses a notice. It covers no controls of
 * the header, the cookie banner or the phones' action bar (issue 24, item 6): on phones at the bottom,
 * above the action bar and the banner (both publish their heights); wider, top-centre below the header.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          data-variant={t.variant ?? "default"}
          className={cn(
            "pointer-events-auto relative flex w-full items-start justify-between gap-3 rounded-lg border p-4 pr-8 shadow-lg",
            "data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full",
            t.variant === "destructive"
              ? "border-red-700 bg-red-600 text-white"
              : "border-slate-200 bg-white text-slate-900",
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded p-1 text-current/70 hover:text-current"
          >
            ×
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={["F8"]}
        className={cn(
          // Phones: at the bottom, above the action bar and the cookie banner (each publishes its height).
          "fixed inset-x-0 bottom-[calc(var(--cookie-banner-height,0px)_+_var(--action-bar-height,0px))] z-[100]",
          "flex max-h-screen w-full flex-col gap-2 p-2 outline-none",
          // Wider: top-centre, just below the sticky header (h-16), clear of its links and buttons.
          "sm:bottom-auto sm:left-1/2 sm:right-auto sm:top-16 sm:max-w-[420px] sm:-translate-x-1/2 sm:p-4",
        )}
      />
    </ToastPrimitive.Provider>
  );
}
