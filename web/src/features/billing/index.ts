// The subscribe and test checkout pages are not here: the router loads them on demand, and a static
// import of this file would pull them into the first bundle.
export { SubscriptionCard } from "./components/subscription-card.tsx";
