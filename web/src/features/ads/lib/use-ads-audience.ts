import { isPremium } from "../../../../../contract/accounts.ts";
import { useUser } from "../../auth/index.ts";

/**
 * Who sees ads, the ad-blocker notice and the cookie banner: free users and
 * visitors (ads run on public pages too). Premium users never do (spec §1, §6).
 * `known` is false while the user is loading, so nothing flashes for Premium users.
 */
export function useAdsAudience(): { known: boolean; showAds: boolean } {
  const { user, isLoading } = useUser();
  return { known: !isLoading, showAds: !(user && isPremium(user.subscriptionStatus)) };
}
