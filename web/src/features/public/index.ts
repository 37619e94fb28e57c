export { AboutPage } from "./components/about-page.tsx";
export { ContactPage } from "./components/contact-page.tsx";
export { LandingPage } from "./components/landing-page.tsx";
export { PrivacyPage } from "./components/privacy-page.tsx";
export { PublicLayout } from "./components/public-layout.tsx";
export { PUBLIC_PAGE_META } from "./page-meta.ts";
