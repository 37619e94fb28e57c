import { useMutation } from "@tanstack/react-query";
import { messageOf } from "@web-api/client.ts";
import { logoutOthers } from "@web-api/endpoints.ts";
import { toast } from "../../../components/ui/use-toast.ts";

/** Ends the user's sessions on other devices and browsers; this one stays signed in. */
export function useLogoutOthers() {
  return useMutation({
    mutationFn: logoutOthers,
    onSuccess: ({ ended }) =>
      toast({
        title: "Other sessions signed out",
        description: ended === 0
          ? "You were not signed in anywhere else."
          : `Signed out of ${ended} other session${ended === 1 ? "" : "s"}.`,
      }),
    onError: (err) =>
      toast({
        title: "Could not sign out other sessions",
        description: messageOf(err, "Please try again"),
        variant: "destructive",
      }),
  });
}
